/*
 * energy.c -- register-file energy and area, after the run (Gebhart et al.,
 * ISCA'11, 4.3 and 5.4; LTRF, ASPLOS'18, Table 2 and 6.2).
 *
 * Nothing here runs during a simulation: the statistics of tstats.def are
 * multiplied by per-access energies from the effective config (energy.*
 * keys, defaults from the papers) when a report is written.
 *
 * Units.  Gebhart gives every access energy for one 128-bit access: the
 * MRF is 32 banks of 4 KB, 128 bits wide, so an access is one bank row,
 * four lanes' 32-bit values (8 pJ read, 11 pJ write, Table 3); Table 2
 * gives the RFC's energy "for four 32-bit values, equivalent to one
 * 128-bit MRF entry" (4.3).  rfsim counts accesses per warp-wide 32-bit
 * register (tstats.def: mrf_reads, ...; a 64-bit value is two), which is
 * 32 lanes x 32 bits = 1024 bits = ENERGY_ACCESSES_PER_REG (8) such
 * accesses.  Wire energy is 1.9 pJ per mm per 32-bit word (Table 3), so
 * moving one warp-wide register over d mm costs 32 x 1.9 x d pJ.
 *
 * Arrays.  With m = ENERGY_ACCESSES_PER_REG,
 *
 *   mrf_pj  = m x (mrf_reads x R_mrf + mrf_writes x W_mrf)
 *   rfc_pj  = m x ((rfc_hits + rfc_writebacks) x R_rfc + rfc_writes x W_rfc)
 *
 * mrf_reads/mrf_writes are every access that reaches the MRF, whatever
 * the reason (operand misses, write-through, write-backs of evicted or
 * flushed entries, LTRF's prefetch fills): the models count them so.  An
 * RFC read costs data-array energy only when it hits (a miss is a tag
 * check, and Gebhart keeps the tags beside the scheduler, outside this
 * energy); a write-back reads the entry out of the RFC (Gebhart 5.4
 * charges "the RFC/MRF accesses required to flush RFC entries").
 *
 * Wires.  The ALUs, the RFC and the MRF lie on one line, the RFC
 * rfc_alu_mm and the MRF mrf_alu_mm from the ALUs, and each transfer of a
 * warp-wide register moves 32 words over the distance between its ends:
 *
 *   wire_pj = 32 x wire_pj_mm x (mrf_alu_mm x (op_mrf + mrf_writes - rfc_writebacks)
 *                 + rfc_alu_mm x (rfc_hits + rfc_writes - fills)
 *                 + |mrf_alu_mm - rfc_alu_mm| x (fills + rfc_writebacks))
 *
 * op_mrf = min(mrf_reads, reg_reads - rfc_hits) are the operands the MRF
 * delivered to the ALUs (reads neither array served come from the
 * writeback path, usecache's bypass, and cost no wire), and fills =
 * mrf_reads - op_mrf the MRF reads that went straight into the cache
 * (LTRF's prefetches) -- each also one of rfc_writes.  Results go from
 * the ALUs to whichever array they are written in, write-backs from the
 * RFC to the MRF.  This is what Table 5 implies: with both arrays 1 mm
 * away every operand and result travels 1 mm once, as in the baseline,
 * and the 0.76 of zero-wire Figure 12 becomes 0.87 (with one to three
 * operand reads per result write), the paper's number; RFC banks beside
 * the ALUs (0 mm) leave only MRF traffic on the wires.
 *
 * RFC energy by geometry.  Table 2 is indexed by entries per thread
 * (4, 6, 8) and active warps (4, 6, 8), but its nine cells depend only on
 * their product -- entries per SIMT lane, the size of a lane's RFC bank
 * (4x6 and 6x4 are both 7400 um^2, 1.2/4.4 pJ; a unit test checks every
 * pair) -- so it is one curve over six sizes, 16..64 entries.  Between
 * two sizes energies and area are interpolated linearly in entries.
 * Outside 16..64 the cache is taken to be built of banks of the nearest
 * tabulated size: an access touches one bank, so its energy is that
 * bank's (the 64-entry bank's 3.4/10.9 pJ above, the 16-entry bank's
 * 1.2/3.8 pJ below), while the area scales with the entries.  LTRF's
 * 16 KB cache on maxwell-ltrf (16 registers x 8 warps = 128 entries per
 * lane) is two 64-entry banks per lane.  The cache of each model comes
 * from caches.def (entries per warp times the warps that hold entries:
 * the two-level scheduler's active set, or every warp slot under a
 * single-level one); a model
 * whose cache geometry is unknown (a key this
 * build lacks, or RFC traffic from a model without a row) is charged the
 * paper's design point, 6 entries x 8 warps, and reports entries null.
 * energy.rfc_read_pj / rfc_write_pj, when not 0, replace the table.
 *
 * MRF technology.  rf.tech = 1..7 selects an LTRF Table 2 design; its
 * power column (relative to configuration #1 at the same activity)
 * scales the MRF's per-access energies and its area column the MRF's
 * area.  Wires are not scaled: Table 2's power is the register file's
 * own (banks and network), and the distance to the ALUs is a key.
 *
 * Normalization.  total_normalized is total_pj divided by the energy the
 * baseline design -- Gebhart's MRF with no cache, i.e. LTRF Table 2
 * configuration #1 (power factor 1) -- would spend on the same work.
 * That design reads every operand and writes every result in the MRF, so
 * its access counts are reg_reads and reg_writes, which the SM counts in
 * every model once per granted read and accepted write (collector.c,
 * sm.c), and it moves each over mrf_alu_mm:
 *
 *   baseline_pj = m x (reg_reads x 8 + reg_writes x 11)
 *               + 32 x wire_pj_mm x mrf_alu_mm x (reg_reads + reg_writes)
 *
 * (8 and 11: energy.mrf_read_pj and energy.mrf_write_pj).  One run thus
 * gives its own normalization: rf.model=baseline at rf.tech 0 or 1 is
 * exactly 1, rf.tech 7 on the baseline is 0.65 of the array part, and
 * Figure 12 / Table 5 / LTRF Figure 10's ratios need no second run.
 *
 * Area (per SM, mm^2): the MRF is sm.registers x 4 bytes in banks of
 * energy.mrf_bank_bytes of energy.mrf_bank_area_um2 each (Gebhart Table
 * 3: 38000 um^2 per 4 KB), times rf.tech's area factor; the RFC is 32
 * lanes x Table 2's area per lane (Table 2's areas are per lane: the
 * 8-active, 6-entry cache's 14300 um^2 holds 192 bytes, the RFC "bank per
 * SIMT lane" of 5.4).  area_normalized divides by the baseline design's
 * MRF.  Not modelled: RFC tags, operand buffering and routing (Gebhart
 * 5.4 leaves them out too), leakage, LTRF's WCB and address tables.
 */
#include "energy/energy.h"

#include <math.h>
#include <string.h>

#include "base/json.h"
#include "base/rftech.h"
#include "timing/rf/rf.h"

/* Gebhart Table 2: RFC area and read/write energy for 128-bit accesses */
typedef struct T2 { int entries, warps; double area_um2, read_pj, write_pj; } T2;
static const T2 table2[] = {
	{4, 4, 5100, 1.2, 3.8},  {4, 6, 7400, 1.2, 4.4},   {4, 8, 9600, 1.9, 6.1},
	{6, 4, 7400, 1.2, 4.4},  {6, 6, 10800, 1.7, 5.4},  {6, 8, 14300, 2.2, 6.7},
	{8, 4, 9600, 1.9, 6.1},  {8, 6, 14300, 2.2, 6.7},  {8, 8, 18800, 3.4, 10.9},
};
enum { NT2 = sizeof table2 / sizeof table2[0] };
#define DESIGN_POINT_ENTRIES 48.0   /* 6 entries x 8 active warps (Gebhart 5.4) */

enum { RFC_ACTIVE, RFC_TWOLEVEL };   /* caches.def's warps column */
typedef struct Geom { const char *model, *entries; int warps; } Geom;
static const Geom geoms[] = {
#define RFC_GEOM(model, entries, warps, what) {model, entries, warps},
#include "energy/caches.def"
#undef RFC_GEOM
};
enum { NGEOMS = sizeof geoms / sizeof geoms[0] };

static RfcCost cost_of(const T2 *r)
{
	return (RfcCost){r->read_pj, r->write_pj, r->area_um2};
}

RfcCost energy_rfc_cost(double n)
{
	const T2 *lo = NULL, *hi = NULL;        /* the nearest sizes at or below, at or above */
	for (int i = 0; i < NT2; i++) {
		double s = table2[i].entries * table2[i].warps;
		if (s <= n && (!lo || s > lo->entries * lo->warps)) lo = &table2[i];
		if (s >= n && (!hi || s < hi->entries * hi->warps)) hi = &table2[i];
	}
	if (lo && hi) {
		double a = lo->entries * lo->warps, b = hi->entries * hi->warps;
		double f = b > a ? (n - a) / (b - a) : 0;
		return (RfcCost){lo->read_pj + f * (hi->read_pj - lo->read_pj),
		                 lo->write_pj + f * (hi->write_pj - lo->write_pj),
		                 lo->area_um2 + f * (hi->area_um2 - lo->area_um2)};
	}
	const T2 *r = lo ? lo : hi;              /* outside the table: banks of that size */
	RfcCost c = cost_of(r);
	c.area_um2 *= n / (r->entries * r->warps);
	return c;
}

/* an integer config key's value by name; 0 when this build lacks it */
static int key_int(const Config *cfg, const char *key, int64_t *v)
{
	const ConfigKey *k = key ? config_key_find(key) : NULL;
	if (!k || k->type != CONFIG_INT) return 0;
	memcpy(v, (const char *)cfg + k->off, sizeof *v);
	return 1;
}

/* warps that hold cache entries (caches.def): the two-level scheduler's
 * active set (sched.c: ceil(sched.active_warps / sched.count) per
 * scheduler), or every warp slot under a single-level scheduler */
static int64_t warps_of(const Config *cfg, int how)
{
	char pol[32];
	const ConfigKey *k = config_key_find("sched.policy");
	int twolevel = how == RFC_TWOLEVEL ||
	               (k && config_choice(k, cfg->sched_policy, pol, sizeof pol) &&
	                !strcmp(pol, "twolevel"));
	int64_t w = cfg->sm_max_warps;
	if (twolevel) {
		int64_t per = (cfg->sched_active_warps + cfg->sched_count - 1) / cfg->sched_count;
		if (per * cfg->sched_count < w) w = per * cfg->sched_count;
	}
	return w;
}

double energy_rfc_entries(const Config *cfg, const char *model)
{
	for (int i = 0; i < NGEOMS; i++) {
		if (strcmp(geoms[i].model, model)) continue;
		int64_t e;
		if (!key_int(cfg, geoms[i].entries, &e)) return -1;
		return (double)e * (double)warps_of(cfg, geoms[i].warps);
	}
	return 0;
}

static double mrf_area_mm2(const Config *cfg)
{
	return (double)cfg->sm_registers * 4 / (double)cfg->energy_mrf_bank_bytes *
	       cfg->energy_mrf_bank_area_um2 * 1e-6;
}

/* register-file words moved, times the distance each moved (mm): energy.c's
 * opening comment */
static double wire_mm(const Config *cfg, const TStats *t)
{
	double served = t->reg_reads > t->rfc_hits ? (double)(t->reg_reads - t->rfc_hits) : 0;
	double op_mrf = (double)t->mrf_reads < served ? (double)t->mrf_reads : served;
	double fills = (double)t->mrf_reads - op_mrf;
	double wb = (double)t->rfc_writebacks;
	double mrf_wr = (double)t->mrf_writes > wb ? (double)t->mrf_writes - wb : 0;
	double rfc_wr = (double)t->rfc_writes > fills ? (double)t->rfc_writes - fills : 0;
	double dm = cfg->energy_mrf_alu_mm, dr = cfg->energy_rfc_alu_mm;
	return dm * (op_mrf + mrf_wr) + dr * ((double)t->rfc_hits + rfc_wr) +
	       fabs(dm - dr) * (fills + wb);
}

void energy_compute(const Config *cfg, const TStats *t, Energy *e)
{
	const RfTech *tech = rftech_of(cfg);
	const double m = ENERGY_ACCESSES_PER_REG, words = ENERGY_LANES;
	const double wire = words * cfg->energy_wire_pj_mm;
	memset(e, 0, sizeof *e);
	e->entries = energy_rfc_entries(cfg, cfg->rf_model >= 0 && cfg->rf_model < NRF_MODELS
	                                      ? rf_model_name[cfg->rf_model] : "");
	int rfc_traffic = t->rfc_hits || t->rfc_writes || t->rfc_writebacks;
	if (e->entries == 0 && rfc_traffic) e->entries = -1;
	RfcCost rc = energy_rfc_cost(e->entries < 0 ? DESIGN_POINT_ENTRIES : e->entries);
	e->mrf_read_pj = cfg->energy_mrf_read_pj * tech->power;
	e->mrf_write_pj = cfg->energy_mrf_write_pj * tech->power;
	e->rfc_read_pj = cfg->energy_rfc_read_pj > 0 ? cfg->energy_rfc_read_pj : rc.read_pj;
	e->rfc_write_pj = cfg->energy_rfc_write_pj > 0 ? cfg->energy_rfc_write_pj : rc.write_pj;
	if (e->entries == 0) e->rfc_read_pj = e->rfc_write_pj = 0;

	double rfc_rd = (double)t->rfc_hits + (double)t->rfc_writebacks;
	e->mrf_pj = m * ((double)t->mrf_reads * e->mrf_read_pj +
	                 (double)t->mrf_writes * e->mrf_write_pj);
	e->rfc_pj = m * (rfc_rd * e->rfc_read_pj + (double)t->rfc_writes * e->rfc_write_pj);
	e->wire_pj = wire * wire_mm(cfg, t);
	e->total_pj = e->mrf_pj + e->rfc_pj + e->wire_pj;

	double rd = (double)t->reg_reads, wr = (double)t->reg_writes;
	e->baseline_pj = m * (rd * cfg->energy_mrf_read_pj + wr * cfg->energy_mrf_write_pj) +
	                 wire * cfg->energy_mrf_alu_mm * (rd + wr);
	e->total_normalized = e->baseline_pj > 0 ? e->total_pj / e->baseline_pj : 0;

	double base_area = mrf_area_mm2(cfg);
	e->mrf_area_mm2 = base_area * tech->area;
	e->rfc_area_mm2 = e->entries != 0 ? ENERGY_LANES * rc.area_um2 * 1e-6 : 0;
	e->area_mm2 = e->mrf_area_mm2 + e->rfc_area_mm2;
	e->area_normalized = base_area > 0 ? e->area_mm2 / base_area : 0;
}

void energy_json(Json *j, const Config *cfg, const TStats *t)
{
	Energy e;
	energy_compute(cfg, t, &e);
	json_obj_begin(j, "energy");
	json_num(j, "mrf_pj", e.mrf_pj);
	json_num(j, "rfc_pj", e.rfc_pj);
	json_num(j, "wire_pj", e.wire_pj);
	json_num(j, "total_pj", e.total_pj);
	json_num(j, "baseline_pj", e.baseline_pj);
	json_num(j, "total_normalized", e.total_normalized);
	if (e.entries < 0) json_null(j, "rfc_entries_per_lane");
	else json_num(j, "rfc_entries_per_lane", e.entries);
	json_num(j, "mrf_read_pj", e.mrf_read_pj);
	json_num(j, "mrf_write_pj", e.mrf_write_pj);
	json_num(j, "rfc_read_pj", e.rfc_read_pj);
	json_num(j, "rfc_write_pj", e.rfc_write_pj);
	json_num(j, "mrf_area_mm2", e.mrf_area_mm2);
	json_num(j, "rfc_area_mm2", e.rfc_area_mm2);
	json_num(j, "area_mm2", e.area_mm2);
	json_num(j, "area_normalized", e.area_normalized);
	json_obj_end(j);
}
