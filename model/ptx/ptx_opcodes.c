/* Decoding of opcode strings: split on '.', classify each qualifier, check the combination. */
#include <string.h>

#include "ptx_opcodes.h"
#include "ptx_qual.h"

/* ---- qualifiers ---- */

typedef struct qual {
    const char *name;
    uint8_t cls;
    uint8_t val;
} qual;

/* Entries with the same name are adjacent; the first whose class the opcode allows wins. */
static const qual quals[] = {
    {"pred", QC_TYPE, PT_PRED}, {"b8", QC_TYPE, PT_B8}, {"b16", QC_TYPE, PT_B16}, {"b32", QC_TYPE, PT_B32},
    {"b64", QC_TYPE, PT_B64}, {"u8", QC_TYPE, PT_U8}, {"u16", QC_TYPE, PT_U16}, {"u32", QC_TYPE, PT_U32},
    {"u64", QC_TYPE, PT_U64}, {"s8", QC_TYPE, PT_S8}, {"s16", QC_TYPE, PT_S16}, {"s32", QC_TYPE, PT_S32},
    {"s64", QC_TYPE, PT_S64}, {"f16", QC_TYPE, PT_F16}, {"f32", QC_TYPE, PT_F32}, {"f64", QC_TYPE, PT_F64},
    {"bf16", QC_TYPE, TYPE_UNSUPPORTED}, {"f16x2", QC_TYPE, TYPE_UNSUPPORTED}, {"bf16x2", QC_TYPE, TYPE_UNSUPPORTED},
    {"b128", QC_TYPE, TYPE_UNSUPPORTED}, {"tf32", QC_TYPE, TYPE_UNSUPPORTED}, {"e4m3", QC_TYPE, TYPE_UNSUPPORTED},
    {"e5m2", QC_TYPE, TYPE_UNSUPPORTED}, {"e4m3x2", QC_TYPE, TYPE_UNSUPPORTED}, {"e5m2x2", QC_TYPE, TYPE_UNSUPPORTED},
    {"s4", QC_TYPE, TYPE_UNSUPPORTED}, {"u4", QC_TYPE, TYPE_UNSUPPORTED}, {"b1", QC_TYPE, TYPE_UNSUPPORTED},
    {"s16x2", QC_TYPE, TYPE_UNSUPPORTED}, {"u16x2", QC_TYPE, TYPE_UNSUPPORTED}, {"f64x2", QC_TYPE, TYPE_UNSUPPORTED},
    {"global", QC_SPACE, PS_GLOBAL}, {"shared", QC_SPACE, PS_SHARED}, {"shared::cta", QC_SPACE, PS_SHARED},
    {"local", QC_SPACE, PS_LOCAL}, {"const", QC_SPACE, PS_CONST}, {"param", QC_SPACE, PS_PARAM},
    {"rn", QC_RND, PR_RN}, {"rz", QC_RND, PR_RZ}, {"rm", QC_RND, PR_RM}, {"rp", QC_RND, PR_RP},
    {"rni", QC_RND, PR_RNI}, {"rzi", QC_RND, PR_RZI}, {"rmi", QC_RND, PR_RMI}, {"rpi", QC_RND, PR_RPI},
    {"eq", QC_CMP, PC_EQ}, {"ne", QC_CMP, PC_NE}, {"lt", QC_CMP, PC_LT}, {"le", QC_CMP, PC_LE},
    {"gt", QC_CMP, PC_GT}, {"ge", QC_CMP, PC_GE}, {"lo", QC_CMP, PC_LO}, {"lo", QC_MUL, PM_LO},
    {"ls", QC_CMP, PC_LS}, {"hi", QC_CMP, PC_HI}, {"hi", QC_MUL, PM_HI}, {"hs", QC_CMP, PC_HS},
    {"equ", QC_CMP, PC_EQU}, {"neu", QC_CMP, PC_NEU}, {"ltu", QC_CMP, PC_LTU}, {"leu", QC_CMP, PC_LEU},
    {"gtu", QC_CMP, PC_GTU}, {"geu", QC_CMP, PC_GEU}, {"num", QC_CMP, PC_NUM}, {"nan", QC_CMP, PC_NAN},
    {"and", QC_BOOL, PB_AND}, {"and", QC_ATOM, PM_ATOM_AND}, {"and", QC_BRED, PM_BAR_RED_AND},
    {"or", QC_BOOL, PB_OR}, {"or", QC_ATOM, PM_ATOM_OR}, {"or", QC_BRED, PM_BAR_RED_OR},
    {"xor", QC_BOOL, PB_XOR}, {"xor", QC_ATOM, PM_ATOM_XOR},
    {"popc", QC_BRED, PM_BAR_RED_POPC},
    {"wide", QC_MUL, PM_WIDE},
    {"up", QC_SHFL, PM_SHFL_UP}, {"down", QC_SHFL, PM_SHFL_DOWN}, {"bfly", QC_SHFL, PM_SHFL_BFLY},
    {"idx", QC_SHFL, PM_SHFL_IDX}, {"idx", QC_IDX, 1},
    {"all", QC_VOTE, PM_VOTE_ALL}, {"any", QC_VOTE, PM_VOTE_ANY}, {"uni", QC_UNI, 1}, {"uni", QC_VOTE, PM_VOTE_UNI},
    {"ballot", QC_VOTE, PM_VOTE_BALLOT},
    {"add", QC_ATOM, PM_ATOM_ADD}, {"min", QC_ATOM, PM_ATOM_MIN}, {"max", QC_ATOM, PM_ATOM_MAX},
    {"inc", QC_ATOM, PM_ATOM_INC}, {"dec", QC_ATOM, PM_ATOM_DEC}, {"exch", QC_ATOM, PM_ATOM_EXCH},
    {"cas", QC_ATOM, PM_ATOM_CAS},
    {"l", QC_SHF, PM_SHF_L}, {"r", QC_SHF, PM_SHF_R},
    {"sync", QC_BAR, BAR_SYNC}, {"sync", QC_SYNC, 1}, {"arrive", QC_BAR, BAR_ARRIVE}, {"red", QC_BAR, BAR_RED},
    {"cta", QC_LEVEL, LVL_CTA}, {"cta", QC_SCOPE, SCOPE_CTA}, {"gl", QC_LEVEL, LVL_GL},
    {"sys", QC_LEVEL, LVL_SYS}, {"sys", QC_SCOPE, SCOPE_SYS}, {"gpu", QC_LEVEL, LVL_GPU}, {"gpu", QC_SCOPE, SCOPE_GPU},
    {"finite", QC_TESTP, PM_TESTP_FINITE}, {"infinite", QC_TESTP, PM_TESTP_INFINITE},
    {"number", QC_TESTP, PM_TESTP_NUMBER}, {"notanumber", QC_TESTP, PM_TESTP_NOTANUMBER},
    {"normal", QC_TESTP, PM_TESTP_NORMAL}, {"subnormal", QC_TESTP, PM_TESTP_SUBNORMAL},
    {"f4e", QC_PRMT, PM_PRMT_F4E}, {"b4e", QC_PRMT, PM_PRMT_B4E}, {"rc8", QC_PRMT, PM_PRMT_RC8},
    {"ecl", QC_PRMT, PM_PRMT_ECL}, {"ecr", QC_PRMT, PM_PRMT_ECR}, {"rc16", QC_PRMT, PM_PRMT_RC16},
    {"v2", QC_VEC, 2}, {"v4", QC_VEC, 4},
    {"relaxed", QC_SEM, SEM_RELAXED}, {"acquire", QC_SEM, SEM_ACQUIRE}, {"release", QC_SEM, SEM_RELEASE},
    {"acq_rel", QC_SEM, SEM_ACQ_REL}, {"sc", QC_SEM, SEM_SC}, {"weak", QC_SEM, SEM_WEAK},
    {"ca", QC_CACHE, 1}, {"cg", QC_CACHE, 2}, {"cs", QC_CACHE, 3}, {"lu", QC_CACHE, 4}, {"cv", QC_CACHE, 5},
    {"wb", QC_CACHE, 6}, {"wt", QC_CACHE, 7},
    {"warp", QC_WARP, 1}, {"to", QC_TO, 1}, {"aligned", QC_ALIGNED, 1}, {"ftz", QC_FTZ, 1}, {"sat", QC_SAT, 1},
    {"approx", QC_APPROX, 1}, {"full", QC_FULL, 1}, {"cc", QC_CC, 1}, {"nc", QC_NC, 1},
    {"volatile", QC_VOLATILE, 1}, {"wrap", QC_WRAP, 1}, {"clamp", QC_CLAMP, 1}, {"shiftamt", QC_SHIFTAMT, 1},
    {"indirect", QC_INDIRECT, 1},
};

/* Opcodes that exist in PTX but not in gtlm's subset, with the reason given to the user. */
static const struct {
    const char *name, *why;
} rejected[] = {
    {"tex", "texture instructions are not supported"}, {"tld4", "texture instructions are not supported"},
    {"txq", "texture instructions are not supported"}, {"istypep", "texture instructions are not supported"},
    {"suld", "surface instructions are not supported"}, {"sust", "surface instructions are not supported"},
    {"sured", "surface instructions are not supported"}, {"suq", "surface instructions are not supported"},
    {"mma", "matrix (tensor core) instructions are not supported"},
    {"wmma", "matrix (tensor core) instructions are not supported"},
    {"ldmatrix", "matrix (tensor core) instructions are not supported"},
    {"stmatrix", "matrix (tensor core) instructions are not supported"},
    {"movmatrix", "matrix (tensor core) instructions are not supported"},
    {"wgmma", "matrix (tensor core) instructions are not supported"},
    {"tcgen05", "matrix (tensor core) instructions are not supported"},
    {"cp", "asynchronous copies (cp.async, cp.reduce.async) are not supported"},
    {"mbarrier", "mbarrier objects are not supported"},
    {"griddepcontrol", "programmatic dependent launch is not supported"},
    {"dp4a", "dot-product instructions are not supported"}, {"dp2a", "dot-product instructions are not supported"},
    {"pmevent", "performance-monitor events are not supported"},
    {"ldu", "ldu is not supported (use ld.global.nc)"},
    {"prefetch", "cache-control instructions are not supported"},
    {"prefetchu", "cache-control instructions are not supported"},
    {"applypriority", "cache-control instructions are not supported"},
    {"discard", "cache-control instructions are not supported"},
    {"createpolicy", "cache-control instructions are not supported"},
    {"alloca", "dynamic stack allocation is not supported"},
    {"stacksave", "dynamic stack allocation is not supported"},
    {"stackrestore", "dynamic stack allocation is not supported"},
    {"isspacep", "isspacep is not supported"}, {"lop3", "lop3 is not in gtlm's PTX subset"},
    {"redux", "redux.sync is not in gtlm's PTX subset"}, {"match", "match.sync is not in gtlm's PTX subset"},
    {"fns", "fns is not in gtlm's PTX subset"}, {"elect", "elect.sync is not in gtlm's PTX subset"},
    {"mapa", "clusters are not supported"}, {"getctarank", "clusters are not supported"},
    {"clusterlaunchcontrol", "clusters are not supported"}, {"setmaxnreg", "setmaxnreg is not supported"},
    {"multimem", "multimem is not supported"}, {"tensormap", "tensor maps are not supported"},
    {"vabsdiff", "video instructions are not supported"}, {"vadd", "video instructions are not supported"},
    {"vsub", "video instructions are not supported"}, {"vmin", "video instructions are not supported"},
    {"vmax", "video instructions are not supported"}, {"vshl", "video instructions are not supported"},
    {"vshr", "video instructions are not supported"}, {"vmad", "video instructions are not supported"},
    {"vset", "video instructions are not supported"}, {"vadd2", "video instructions are not supported"},
    {"vadd4", "video instructions are not supported"}, {"vsub2", "video instructions are not supported"},
    {"vsub4", "video instructions are not supported"}, {"vavrg2", "video instructions are not supported"},
    {"vavrg4", "video instructions are not supported"}, {"vabsdiff2", "video instructions are not supported"},
    {"vabsdiff4", "video instructions are not supported"}, {"vmin2", "video instructions are not supported"},
    {"vmin4", "video instructions are not supported"}, {"vmax2", "video instructions are not supported"},
    {"vmax4", "video instructions are not supported"}, {"vset2", "video instructions are not supported"},
    {"vset4", "video instructions are not supported"},
};

static const char *rejected_why(const char *s, size_t len)
{
    for (size_t i = 0; i < sizeof rejected / sizeof rejected[0]; i++)
        if (ptx_cmp_name(s, len, rejected[i].name) == 0) return rejected[i].why;
    return NULL;
}

int ptx_type_from_name(const char *s, size_t len)
{
    for (size_t i = 0; i < sizeof quals / sizeof quals[0] && quals[i].cls == QC_TYPE; i++)
        if (ptx_cmp_name(s, len, quals[i].name) == 0) return quals[i].val == TYPE_UNSUPPORTED ? -1 : quals[i].val;
    return PT_NONE;
}

/* Applies one qualifier; returns -1 with why when it is unknown, invalid here or repeated. */
static int add_qual(qd *q, const ptx_opspec *spec, const char *s, size_t len, char *why, size_t n)
{
    int known = 0;
    for (size_t i = 0; i < sizeof quals / sizeof quals[0]; i++) {
        const qual *ql = &quals[i];
        if (ptx_cmp_name(s, len, ql->name) != 0) continue;
        known = 1;
        if (!(spec->allowed & (1ull << ql->cls))) continue;
        if (ql->cls == QC_TYPE) {
            if (ql->val == TYPE_UNSUPPORTED) return ptx_reason(why, n, "type .%.*s is not supported", (int)len, s);
            if (q->ntypes == 2) return ptx_reason(why, n, "too many type qualifiers");
            q->types[q->ntypes++] = ql->val;
            return 0;
        }
        if (q->v[ql->cls]) return ptx_reason(why, n, "more than one %s qualifier", ptx_qclass_name[ql->cls]);
        q->v[ql->cls] = ql->val;
        return 0;
    }
    if (known) return ptx_reason(why, n, "qualifier .%.*s is not valid for %s", (int)len, s, spec->name);
    return ptx_reason(why, n, "unknown qualifier .%.*s", (int)len, s);
}

int ptx_decode_opcode(const char *text, size_t len, ptx_instr *in, char *why, size_t whylen)
{
    size_t dot = 0;
    while (dot < len && text[dot] != '.') dot++;
    const ptx_opspec *spec = ptx_find_opspec(text, dot);
    if (!spec) {
        const char *r = rejected_why(text, dot);
        if (r) return ptx_reason(why, whylen, "%s", r);
        return ptx_reason(why, whylen, "unknown opcode '%.*s'", (int)dot, text);
    }
    qd q;
    memset(&q, 0, sizeof q);
    for (size_t i = dot; i < len;) {
        size_t j = i + 1;
        while (j < len && text[j] != '.') j++;
        if (j == i + 1) return ptx_reason(why, whylen, "empty qualifier");
        if (add_qual(&q, spec, text + i + 1, j - i - 1, why, whylen)) return -1;
        i = j;
    }
    in->op = spec->op;
    if (spec->check(&q, in, spec->name, why, whylen)) return -1;
    in->space = q.v[QC_SPACE];
    in->rnd = q.v[QC_RND];
    in->cmp = q.v[QC_CMP];
    in->boolop = q.v[QC_BOOL];
    in->vec = q.v[QC_VEC] ? q.v[QC_VEC] : 1;
    static const struct {
        uint8_t cls;
        uint32_t flag;
    } flags[] = {{QC_FTZ, PF_FTZ}, {QC_SAT, PF_SAT}, {QC_APPROX, PF_APPROX}, {QC_FULL, PF_FULL}, {QC_CC, PF_CC},
                 {QC_UNI, PF_UNI}, {QC_NC, PF_NC}, {QC_VOLATILE, PF_VOLATILE}, {QC_WRAP, PF_WRAP},
                 {QC_CLAMP, PF_CLAMP}, {QC_SHIFTAMT, PF_SHIFTAMT}, {QC_TO, PF_TO}, {QC_SYNC, PF_SYNC},
                 {QC_ALIGNED, PF_ALIGNED}};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (q.v[flags[i].cls]) in->flags |= flags[i].flag;
    switch (q.v[QC_SEM]) {
    case SEM_RELAXED: in->flags |= PF_RELAXED; break;
    case SEM_ACQUIRE: in->flags |= PF_ACQUIRE; break;
    case SEM_RELEASE: in->flags |= PF_RELEASE; break;
    case SEM_ACQ_REL: in->flags |= PF_ACQUIRE | PF_RELEASE; break;
    default: break;
    }
    return 0;
}

