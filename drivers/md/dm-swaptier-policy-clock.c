// SPDX-License-Identifier: GPL-2.0-only
/*
 * dm-swaptier: the "clock" heat policy. It keeps one byte of heat per
 * logical block: a write sets it to 1, each read adds 1 (up to 255), a
 * discard clears it, and every heat_period all heats are halved. A block
 * nobody wrote or read in the last period is therefore at 0, and a block
 * read often stays high.
 */
#include "dm-swaptier-policy.h"

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

static int swt_clock_create(struct swt_policy *p, u32 nr_logical)
{
	p->heat = kvcalloc(nr_logical, 1, GFP_KERNEL);
	return p->heat ? 0 : -ENOMEM;
}

static void swt_clock_destroy(struct swt_policy *p)
{
	kvfree(p->heat);
	p->heat = NULL;
}

static void swt_clock_hit(struct swt_policy *p, swt_lblk_t lblk, u32 len)
{
	u8 *h = p->heat + from_lblk(lblk);

	while (len--) {
		if (*h < 255)
			(*h)++;
		h++;
	}
}

static void swt_clock_fill(struct swt_policy *p, swt_lblk_t lblk, u32 len)
{
	memset(p->heat + from_lblk(lblk), 1, len);
}

static void swt_clock_clear(struct swt_policy *p, swt_lblk_t lblk, u32 len)
{
	memset(p->heat + from_lblk(lblk), 0, len);
}

static void swt_clock_age(struct swt_policy *p, swt_lblk_t lblk, u32 len)
{
	u8 *h = p->heat + from_lblk(lblk);

	while (len--)
		*h++ >>= 1;
}

static unsigned int swt_clock_heat(const struct swt_policy *p, swt_lblk_t lblk)
{
	return p->heat[from_lblk(lblk)];
}

static u64 swt_clock_bytes(const struct swt_policy *p)
{
	return p->nr_logical;
}

const struct swt_policy_ops swt_clock_ops = {
	.name = "clock",
	.create = swt_clock_create,
	.destroy = swt_clock_destroy,
	.hit = swt_clock_hit,
	.fill = swt_clock_fill,
	.clear = swt_clock_clear,
	.age = swt_clock_age,
	.heat = swt_clock_heat,
	.bytes = swt_clock_bytes,
};
