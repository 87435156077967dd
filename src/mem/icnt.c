/*
 * icnt.c -- the interconnect between the SMs and the L2 slices.
 *
 * A crossbar, as GPGPU-Sim models Fermi's (a one-stage butterfly with iSLIP
 * allocation, config_fermi_islip.icnt), with its contention at the ports:
 * every SM and every slice has a port into the network and a port out of
 * it, each moving one flit of icnt.flit_bytes per interconnect cycle.  A
 * packet -- a read request is icnt.header_bytes, a write or a reply the
 * header and its data -- takes ceil(bytes / flit) flits.  It books its
 * source port (the first gap at or after it is ready: calendar.h, first
 * come first served by arrival), crosses in icnt.lat interconnect cycles,
 * and books the destination port no earlier than its head arrives; it has
 * arrived when its tail has.  Requests and replies travel on separate
 * networks (GPGPU-Sim's two subnets): an SM's two ports and a slice's two
 * are distinct.  Left out: the switch's internal speedup, virtual-channel
 * buffers (a saturated destination port queues its packets in order of
 * arrival instead of pushing back on the sources: the SMs' miss queues and
 * MSHRs and the slices' queues bound what is in flight).
 */
#include "mem/mem.h"

static int64_t flits(const MemSys *ms, int32_t bytes)
{
	return (bytes + ms->flit_bytes - 1) / ms->flit_bytes;
}

/* book len ticks on port p at its first gap at or after t: the start */
static int64_t book(MemSys *ms, Port *p, int64_t t, int64_t len)
{
	int64_t s = cal_book(&p->cal, t, len, ms->now);
	p->head = (p->head + 1) % PORT_QMAX;
	p->ready[p->head] = t;
	p->start[p->head] = s;
	return s;
}

int port_waiting(const Port *p, int64_t t, int cap, int64_t *free)
{
	int n = 0, look = 2 * cap < PORT_QMAX ? 2 * cap : PORT_QMAX;
	int64_t first = INT64_MAX;
	for (int k = 0, i = p->head; k < look; k++, i = (i + PORT_QMAX - 1) % PORT_QMAX) {
		int64_t r = p->ready[i], s = p->start[i];     /* the newest first: packets are */
		if (r <= t && t < s) {                       /* booked nearly in ready order */
			n++;
			if (s < first) first = s;
		}
	}
	*free = first;
	return n >= cap ? n : 0;
}

static int64_t cross(MemSys *ms, Port *out, Port *in, int32_t bytes, int64_t t)
{
	int64_t len = flits(ms, bytes) * ms->icnt_period;
	int64_t s = book(ms, out, mem_edge(t, ms->icnt_period), len);
	return book(ms, in, s + ms->icnt_lat, len) + len;
}

int64_t icnt_to_slice(MemSys *ms, int32_t sm, int32_t slice, int32_t bytes, int64_t t)
{
	return cross(ms, &ms->sm_out[sm], &ms->sl_in[slice], bytes, t);
}

int64_t icnt_to_sm(MemSys *ms, int32_t slice, int32_t sm, int32_t bytes, int64_t t)
{
	return cross(ms, &ms->sl_out[slice], &ms->sm_in[sm], bytes, t);
}

int memsys_can_send(const MemSys *ms, int32_t sm, int64_t t, int64_t *retry)
{
	int64_t free;
	if (!ms->miss_queue || !port_waiting(&ms->sm_out[sm], mem_tick(t), ms->miss_queue, &free))
		return 1;
	*retry = mem_cycle(free);
	return 0;
}
