// SPDX-License-Identifier: GPL-2.0-only
/*
 * A module whose only job is to WARN when loaded: the VM harness's own test
 * loads it to prove that a kernel splat fails the case that caused it.
 */
#include <linux/bug.h>
#include <linux/module.h>

static int __init swt_warn_init(void)
{
	WARN(1, "swt_warn: planted warning for the harness self-test\n");
	return 0;
}

static void __exit swt_warn_exit(void)
{
}

module_init(swt_warn_init);
module_exit(swt_warn_exit);
MODULE_DESCRIPTION("dm-swaptier VM harness self-test: a planted WARN");
MODULE_LICENSE("GPL");
