/* models.c -- the compiler passes each register-file model needs (models.def). */
#include "base/models.h"

static const unsigned passes[NRF_MODELS] = {
#define RF_MODEL(name, ps, desc) ps,
#include "base/models.def"
#undef RF_MODEL
};

unsigned model_passes(int m)
{
	return m >= 0 && m < NRF_MODELS ? passes[m] : 0;
}
