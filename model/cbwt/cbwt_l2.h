/*
 * CBWT's contention detector on one L2 slice (seeds/001 Sec. V-B, Fig. 9; spec 3.3, gap G11):
 * the slice's cache hooks feed two victim-bit detectors, the hardware's (sampled sets) and the
 * full-coverage statistic's (every set). Loads only: a load hit checks and sets its SM's bit, a
 * load miss or merge counts an access and its SM's bit is set when the fill serves it, an
 * eviction clears the line's bits (silently: the L1s are not recalled). With `served` set, every
 * load also goes to the residency-free instrument of victim_map.h (statistics only).
 */
#ifndef GTLM_CBWT_L2_H
#define GTLM_CBWT_L2_H

#include "../l2/l2_slice.h"
#include "lls_detector.h"
#include "victim_map.h"

typedef struct cbwt_l2 {
    l2_slice *slice;
    lls_detector *hw, *full;
    victim_map *served;     /* optional (NULL): lines served per L1 regardless of L2 residency */
    int fill_set, fill_way; /* the line the fill in progress went to, -1 when none */
    uint64_t fill_line;     /* its line address */
} cbwt_l2;

/* Installs the hooks on the slice's cache (which must have none). 0, or -1. */
int cbwt_l2_attach(cbwt_l2 *o, l2_slice *slice, lls_detector *hw, lls_detector *full);

#endif
