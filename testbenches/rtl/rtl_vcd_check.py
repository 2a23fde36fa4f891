#!/usr/bin/env python3
"""rtl_vcd_check.py MODEL.vcd RTL.vcd PERIOD_FS: the RTL VCD of a -rtl_power -rtl_sched run next to the
model's: same time unit, SM 0's warp arbiters (pins ready, grant_warp), SM 0's L1D and L2 slice 0's
Snooze controllers present with internal signals
(r_mode, n_mode, r_pend: the addressed block's state and next state), and aligned in time: every
change of SM 0's controller's `now` pin (the core cycle it was driven in) is at now * PERIOD_FS, the
time of that core edge in the model, and some of those instants are time steps of the model's VCD.
A kernel begin (ev 9) is driven when the host launches the kernel, before its first cycle `now`:
those instants are the launch's, not now's."""
import sys


def parse(path):
    """timescale text, {scope: {name: id}}, {id: [(t, value)]}, [timestamps]"""
    scopes, stack, changes, times = {}, [], {}, []
    ts, t, in_ts = "", 0, False
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if in_ts:
                if w[0] == "$end":
                    in_ts = False
                else:
                    ts += "".join(x for x in w if x != "$end")
                    in_ts = "$end" not in w
                continue
            if w[0] == "$timescale":
                rest = [x for x in w[1:] if x != "$end"]
                ts += "".join(rest)
                in_ts = "$end" not in w
            elif w[0] == "$scope":
                stack.append(w[2])
            elif w[0] == "$upscope":
                stack.pop()
            elif w[0] == "$var":
                scopes.setdefault(".".join(stack), {})[w[4]] = w[3]
            elif w[0].startswith("#"):
                t = int(w[0][1:])
                times.append(t)
            elif w[0][0] in "bB" and len(w) == 2:
                changes.setdefault(w[1], []).append((t, int(w[0][1:], 2) if "x" not in w[0] else None))
            elif w[0][0] in "01" and len(w[0]) > 1:
                changes.setdefault(w[0][1:], []).append((t, int(w[0][0])))
    return ts, scopes, changes, times


def main():
    model, rtl, period = sys.argv[1], sys.argv[2], int(sys.argv[3])
    mts, _, _, mtimes = parse(model)
    rts, scopes, changes, _ = parse(rtl)
    fail = []
    if mts != rts or rts != "1fs":
        fail.append(f"time units differ: model '{mts}', RTL '{rts}' (expected 1fs)")
    for inst in ("gpu.sm_0.l1d_snooze", "gpu.l2_0.snooze"):
        inner = scopes.get(inst + ".snooze_ctrl", {})
        missing = [s for s in ("r_mode", "n_mode", "r_pend", "now", "ev", "blk") if s not in inner]
        if missing:
            fail.append(f"{inst}: signals {missing} missing (scopes: {sorted(scopes)[:4]}...)")
    for inst in ("gpu.sm_0.sched_0", "gpu.sm_0.sched_1"):
        if not {"ready", "grant_warp"} <= set(scopes.get(inst, {})):
            fail.append(f"{inst}: the warp arbiter's pins are missing")
    sm0 = scopes.get("gpu.sm_0.l1d_snooze", {})
    evs = changes.get(sm0.get("ev"), [])

    def ev_at(t):
        v = None
        for te, e in evs:
            if te > t:
                break
            v = e
        return v

    nows = [(t, v) for t, v in changes.get(sm0.get("now"), []) if ev_at(t) != 9]
    bad = [(t, v) for t, v in nows if v is None or t != v * period]
    common = set(t for t, _ in nows) & set(mtimes)
    if not nows:
        fail.append("SM 0's controller never changed `now`")
    if bad:
        fail.append(f"{len(bad)} of {len(nows)} changes of SM 0's `now` are not at now * {period} fs, first {bad[0]}")
    if not common:
        fail.append("no instant of SM 0's controller is a time step of the model's VCD")
    for f in fail:
        print("FAIL:", f)
    if not fail:
        print(f"RTL VCD aligned: {len(nows)} changes of SM 0's controller at now x {period} fs, "
              f"{len(common)} of them time steps of the model's VCD; unit {rts}")
    return 1 if fail else 0


sys.exit(main())
