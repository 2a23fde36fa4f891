/*
 * DRAM address mapping: GPGPU-Sim's -gpgpu_mem_addr_mapping string decoded into channel, row,
 * bank, column and burst offset.
 *
 * Format: "[dramid@N;]" then up to 64 mask characters, most significant bit first ('.' ignored;
 * a shorter mask is right-aligned, its last character is address bit 0):
 *   D channel, R row, B bank, C column (in bursts), S byte within a burst,
 *   0/1 fixed bits and K: not decoded.
 * Each field's value packs its address bits in order (a parallel bit extract): the lowest marked
 * bit becomes bit 0 of the field.
 *
 * Channel selection:
 *   - the mask has D bits: channel = the D field, and R/B/C/S come from the same address;
 *   - otherwise, with "dramid@N" and n_channels > 1: channel = (addr >> N) % n_channels and the
 *     channel-local address ((addr >> N) / n_channels << N | addr's low N bits) is what the mask
 *     decodes. This works for any channel count (GTX480 has 6); for a power of two it equals
 *     removing log2(n) address bits at position N;
 *   - otherwise channel 0 (only valid with one channel).
 * A bank field wider than the bank count wraps (bank % nbk).
 */
#ifndef GTLM_DRAM_ADDR_H
#define GTLM_DRAM_ADDR_H

#include <stdint.h>

enum { DRAM_F_CHAN, DRAM_F_ROW, DRAM_F_BANK, DRAM_F_COL, DRAM_F_BURST, DRAM_F_N };

typedef struct dram_addr_map {
    uint64_t mask[DRAM_F_N];
    uint8_t pos[DRAM_F_N][64]; /* address bit of each field bit, lowest first */
    int nbits[DRAM_F_N];
    /* The same bits as runs of adjacent address bits: a field is the OR of
     * (addr >> run_shift) & run_mask, shifted up by run_dst; most fields are one or two runs. */
    uint8_t nruns[DRAM_F_N];
    uint8_t run_shift[DRAM_F_N][64], run_dst[DRAM_F_N][64];
    uint64_t run_mask[DRAM_F_N][64];
    int dramid_bit;            /* -1: no "dramid@" */
    int n_channels;
    int n_banks;
    int part_indexing;         /* DRAM_PART_*: -gpgpu_memory_partition_indexing */
} dram_addr_map;

/* Memory-partition index hashes (-gpgpu_memory_partition_indexing). "upper" is the address above
 * the channel field (above the highest D bit, or (addr >> N) / channels with dramid@N):
 *   LINEAR  the mapping's channel;
 *   XOR     channel ^ (upper mod channels), channels a power of two (GPGPU-Sim's bitwise hash);
 *   IPOLY   sub-partition s = channel * n_sub + bank mod n_sub, then s' = ((upper << k) | s) mod
 *           p(x) over GF(2), p the degree-k irreducible polynomial, 2^k = channels * n_sub (a
 *           power of two); the channel is s' / n_sub. Row, bank and column keep their bits. */
/*   RANDOM  every chunk of 2^(c - log2 n_sub) bytes, c the lowest channel bit (dramid@c or the
 *           lowest D), gets a pseudo-random sub-partition: a 64-bit mix of the chunk number mod
 *           channels x n_sub. GPGPU-Sim 4.2 draws rand() for each chunk on its first use, so the
 *           slice of one address differs; the chunk size and the uniform spread are the same.
 *   CUSTOM  GPGPU-Sim's hook for a user hash is empty there: the linear sub-partition.
 * PAE (3) has no case in GPGPU-Sim 4.2's decoder (its default branch asserts): not accepted. */
enum { DRAM_PART_LINEAR = 0, DRAM_PART_XOR = 1, DRAM_PART_IPOLY = 2, DRAM_PART_PAE = 3, DRAM_PART_RANDOM = 4,
       DRAM_PART_CUSTOM = 5 };

typedef struct dram_addr {
    uint32_t channel;
    uint32_t row;
    uint32_t bank;
    uint32_t col;   /* column in burst units */
    uint32_t burst; /* byte offset within the burst */
    uint64_t local; /* channel-local address (the address the mask decoded) */
} dram_addr;

/* Parses the mapping for n_channels channels of n_banks banks. Returns GTLM_ST_OK or
 * GTLM_ST_ECONFIG with a reason in why (may be NULL). */
int dram_addr_map_init(dram_addr_map *m, const char *mapping, int n_channels, int n_banks, char *why, int why_len);
void dram_addr_decode(const dram_addr_map *m, uint64_t addr, dram_addr *out);
/* Sets the partition hash; GTLM_ST_ECONFIG (reason in why) when the channel or sub-partition
 * count does not suit it (XOR: channels a power of two; IPOLY: channels x n_sub a power of two
 * up to 2^16). */
int dram_addr_set_partition_indexing(dram_addr_map *m, int policy, int n_sub_per_channel, char *why, int why_len);
/* Memory sub-partition (L2 slice) of an address, GPGPU-Sim's rule: channel * n_sub plus the low
 * bits of the bank (bank mod n_sub), so consecutive banks of a channel alternate slices; then
 * the partition hash. */
uint32_t dram_addr_subpartition(const dram_addr_map *m, int n_sub_per_channel, uint64_t addr);
/* The address inside its sub-partition, what GPGPU-Sim 4.2 indexes an L2 bank's sets with: the
 * channel-local address (the D bits removed, or dramid@N's channel divided out) without the
 * lowest log2(n_sub) bank bits, which pick the sub-partition (kept when n_sub is not a power of
 * two or the bank field is narrower). The partition hash does not change it: like GPGPU-Sim, the
 * linear channel and sub-partition bits are what is removed. */
uint64_t dram_addr_partition_address(const dram_addr_map *m, int n_sub_per_channel, uint64_t addr);

#endif
