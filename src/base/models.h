/*
 * models.h -- the register-file models of models.def as the config and the
 * compiler see them: their indices (rf.model's values) and the compiler
 * passes each needs.  The models' hardware is src/timing/rf/ (rf.h).
 */
#ifndef RFSIM_BASE_MODELS_H
#define RFSIM_BASE_MODELS_H

enum {                       /* compiler passes a model needs (models.def's passes) */
	MP_REGMUTEX = 1 << 0,    /* acquire/release and compaction (analysis/regmutex.c) */
	MP_REGSHARE = 1 << 1,    /* declaration reordering for sharing (analysis/regshare.c) */
	MP_INTERVALS = 1 << 2,   /* register-intervals and PREFETCH (analysis/prefetch.c) */
};

enum {                       /* model indices, in models.def order (= rf.model's value) */
#define RF_MODEL(name, passes, desc) RF_##name,
#include "base/models.def"
#undef RF_MODEL
	NRF_MODELS
};

/* the MP_* passes model m (an RF_* index) needs; 0 for an index out of range */
unsigned model_passes(int m);

#endif
