/*
 * rf.c -- the table of register-file models, from models.def.
 */
#include "sim/rf/rf.h"

#define RF_MODEL(name, desc) extern const RfModel rf_model_##name;
#include "sim/rf/models.def"
#undef RF_MODEL

const RfModel *const rf_models[NRF_MODELS] = {
#define RF_MODEL(name, desc) &rf_model_##name,
#include "sim/rf/models.def"
#undef RF_MODEL
};

const char *const rf_model_name[NRF_MODELS] = {
#define RF_MODEL(name, desc) #name,
#include "sim/rf/models.def"
#undef RF_MODEL
};

const char *const rf_model_desc[NRF_MODELS] = {
#define RF_MODEL(name, desc) desc,
#include "sim/rf/models.def"
#undef RF_MODEL
};
