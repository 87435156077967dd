/*
 * rf.c -- the table of register-file models, from models.def.
 */
#include "timing/rf/rf.h"

#define RF_MODEL(name, passes, desc) extern const RfModel rf_model_##name;
#include "base/models.def"
#undef RF_MODEL

const RfModel *const rf_models[NRF_MODELS] = {
#define RF_MODEL(name, passes, desc) &rf_model_##name,
#include "base/models.def"
#undef RF_MODEL
};

const char *const rf_model_name[NRF_MODELS] = {
#define RF_MODEL(name, passes, desc) #name,
#include "base/models.def"
#undef RF_MODEL
};

const char *const rf_model_desc[NRF_MODELS] = {
#define RF_MODEL(name, passes, desc) desc,
#include "base/models.def"
#undef RF_MODEL
};
