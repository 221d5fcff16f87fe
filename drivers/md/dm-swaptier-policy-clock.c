// SPDX-License-Identifier: GPL-2.0-only
/*
 * dm-swaptier: the "clock" heat policy. It keeps one byte of heat per
 * logical block: a write sets it to 1, each read adds 1 (up to 255), a
 * discard clears it, and every heat_period all heats are halved. A block
 * nobody wrote or read in the last period is therefore at 0, and a block
 * read often stays high.
 *
 * Besides, half a byte per block counts how long it has gone unread and
 * unwritten, in age classes (SWT_AGE_CLASSES), and each read counts the
 * class its block had reached: how old the blocks swap reads back are.
 * The gate is the class that all but 1/SWT_GATE_TAIL of recent reads
 * stayed below: blocks older than that are seldom read again.
 */
#include "dm-swaptier-policy.h"

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

/* Bytes of age classes for @nr blocks: two a byte. */
static u32 swt_clock_since_bytes(u32 nr)
{
	return nr / 2 + (nr & 1);
}

static int swt_clock_create(struct swt_policy *p, u32 nr_logical)
{
	p->heat = kvcalloc(nr_logical, 1, GFP_KERNEL);
	if (!p->heat)
		return -ENOMEM;
	p->since = kvcalloc(swt_clock_since_bytes(nr_logical), 1, GFP_KERNEL);
	if (!p->since) {
		kvfree(p->heat);
		p->heat = NULL;
		return -ENOMEM;
	}
	return 0;
}

static void swt_clock_destroy(struct swt_policy *p)
{
	kvfree(p->since);
	p->since = NULL;
	kvfree(p->heat);
	p->heat = NULL;
}

static unsigned int swt_clock_get_since(const struct swt_policy *p, u32 l)
{
	return (p->since[l / 2] >> ((l & 1) * 4)) & 0xf;
}

static void swt_clock_set_since(struct swt_policy *p, u32 l, unsigned int c)
{
	unsigned int shift = (l & 1) * 4;

	p->since[l / 2] = (p->since[l / 2] & ~(0xf << shift)) | (c << shift);
}

static void swt_clock_hit(struct swt_policy *p, swt_lblk_t lblk, u32 len)
{
	u32 l = from_lblk(lblk), end = l + len;
	unsigned int c;

	for (; l < end; l++) {
		if (p->heat[l] < 255)
			p->heat[l]++;
		c = swt_clock_get_since(p, l);
		if (p->read_age[c] < U32_MAX)
			p->read_age[c]++;
		swt_clock_set_since(p, l, 0);
	}
}

/* Age classes of @len blocks from @l to 0. */
static void swt_clock_reset_since(struct swt_policy *p, u32 l, u32 len)
{
	u32 end = l + len;

	for (; l < end && (l & 1); l++)
		swt_clock_set_since(p, l, 0);
	if (end - l >= 2) {
		memset(p->since + l / 2, 0, (end - l) / 2);
		l += (end - l) & ~1U;
	}
	for (; l < end; l++)
		swt_clock_set_since(p, l, 0);
}

static void swt_clock_fill(struct swt_policy *p, swt_lblk_t lblk, u32 len)
{
	memset(p->heat + from_lblk(lblk), 1, len);
	swt_clock_reset_since(p, from_lblk(lblk), len);
}

static void swt_clock_clear(struct swt_policy *p, swt_lblk_t lblk, u32 len)
{
	memset(p->heat + from_lblk(lblk), 0, len);
	swt_clock_reset_since(p, from_lblk(lblk), len);
}

static void swt_clock_age(struct swt_policy *p, swt_lblk_t lblk, u32 len)
{
	u32 l = from_lblk(lblk), end = l + len;
	unsigned int c;

	for (; l < end; l++) {
		p->heat[l] >>= 1;
		c = swt_clock_get_since(p, l);
		/* class c lasts 1 << (c / 4) periods, 15 for ever */
		if (c < SWT_AGE_CLASSES - 1 &&
		    !(p->periods & ((1U << (c >> 2)) - 1)))
			swt_clock_set_since(p, l, c + 1);
	}
}

static void swt_clock_period(struct swt_policy *p)
{
	unsigned int c;

	p->periods++;
	for (c = 0; c < SWT_AGE_CLASSES; c++)
		p->read_age[c] >>= 1;
}

static unsigned int swt_clock_heat(const struct swt_policy *p, swt_lblk_t lblk)
{
	return p->heat[from_lblk(lblk)];
}

static unsigned int swt_clock_since(const struct swt_policy *p,
				    swt_lblk_t lblk)
{
	return swt_clock_get_since(p, from_lblk(lblk));
}

static unsigned int swt_clock_gate(const struct swt_policy *p)
{
	u64 total = 0, tail = 0;
	unsigned int c;

	for (c = 0; c < SWT_AGE_CLASSES; c++)
		total += p->read_age[c];
	if (total < SWT_GATE_TAIL)
		return SWT_AGE_CLASSES;
	for (c = SWT_AGE_CLASSES; c--; ) {
		tail += p->read_age[c];
		if (tail * SWT_GATE_TAIL > total)
			return c + 1;
	}
	return 0;
}

static u64 swt_clock_bytes(const struct swt_policy *p)
{
	return p->nr_logical + swt_clock_since_bytes(p->nr_logical);
}

const struct swt_policy_ops swt_clock_ops = {
	.name = "clock",
	.create = swt_clock_create,
	.destroy = swt_clock_destroy,
	.hit = swt_clock_hit,
	.fill = swt_clock_fill,
	.clear = swt_clock_clear,
	.age = swt_clock_age,
	.period = swt_clock_period,
	.heat = swt_clock_heat,
	.since = swt_clock_since,
	.gate = swt_clock_gate,
	.bytes = swt_clock_bytes,
};
