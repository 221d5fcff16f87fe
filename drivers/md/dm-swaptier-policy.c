// SPDX-License-Identifier: GPL-2.0-only
/*
 * dm-swaptier: the heat policies, by name.
 */
#include "dm-swaptier-policy.h"

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

static const struct swt_policy_ops *const swt_policies[] = {
	&swt_clock_ops,
};

int swt_policy_create(struct swt_policy *p, const char *name, u32 nr_logical)
{
	unsigned int i;
	int r;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < ARRAY_SIZE(swt_policies); i++) {
		if (name && strcmp(name, swt_policies[i]->name))
			continue;
		p->nr_logical = nr_logical;
		r = swt_policies[i]->create(p, nr_logical);
		if (!r)
			p->ops = swt_policies[i];
		return r;
	}
	return -EINVAL;
}

void swt_policy_destroy(struct swt_policy *p)
{
	if (p->ops)
		p->ops->destroy(p);
	p->ops = NULL;
}
