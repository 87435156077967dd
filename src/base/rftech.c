/* rftech.c -- LTRF Table 2 (rftech.def) and rf.tech's scaling (rftech.h). */
#include "base/rftech.h"

#include <math.h>

const RfTech rf_tech[RF_NTECH + 1] = {
	{0, "as configured", 1, 1, "as configured", 1, 1, 1, 1, 1, 1.0},
#define RFTECH(n, cell, banks, bsize, net, cap, area, power, cpa, cpp, lat) \
	{n, cell, banks, bsize, net, cap, area, power, cpa, cpp, lat},
#include "base/rftech.def"
#undef RFTECH
};

const RfTech *rftech_of(const Config *c)
{
	int64_t t = c->rf_tech;
	return &rf_tech[t >= 0 && t <= RF_NTECH ? t : 0];
}

int64_t rftech_registers(const Config *c)
{
	return (int64_t)llround((double)c->sm_registers * rftech_of(c)->capacity);
}

int64_t rftech_banks(const Config *c)
{
	return (int64_t)llround((double)c->rf_banks * rftech_of(c)->banks);
}

int64_t rftech_mrf_latency(const Config *c)
{
	double f = rftech_of(c)->latency;
	int64_t l = (int64_t)llround((double)c->rf_mrf_latency * f);
	if (f > 1 && l <= c->rf_mrf_latency) l = c->rf_mrf_latency + 1;
	return l;
}
