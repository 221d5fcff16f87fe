// SPDX-License-Identifier: GPL-2.0-only
/*
 * A module whose only job is to misbehave when loaded: the VM harness's own
 * test loads it to prove that a kernel splat fails the case that caused it.
 * plant= picks the bug: "warn" (default) a WARN; on the debug kernel also
 * "uaf" a use-after-free for KASAN, "lockorder" an AB-BA lock inversion for
 * lockdep and "sleep" a sleep under a spinlock for DEBUG_ATOMIC_SLEEP.
 */
#include <linux/bug.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

static char *plant = "warn";
module_param(plant, charp, 0444);
MODULE_PARM_DESC(plant, "warn, uaf, lockorder or sleep");

static DEFINE_MUTEX(swt_warn_a);
static DEFINE_MUTEX(swt_warn_b);
static DEFINE_SPINLOCK(swt_warn_lock);

static void swt_warn_uaf(void)
{
	char *p = kmalloc(64, GFP_KERNEL);

	if (!p)
		return;
	kfree(p);
	OPTIMIZER_HIDE_VAR(p);
	pr_info("swt_warn: read after free: %d\n", READ_ONCE(p[8]));
}

static void swt_warn_lockorder(void)
{
	mutex_lock(&swt_warn_a);
	mutex_lock(&swt_warn_b);
	mutex_unlock(&swt_warn_b);
	mutex_unlock(&swt_warn_a);
	/* the other order: lockdep reports the cycle without a deadlock */
	mutex_lock(&swt_warn_b);
	mutex_lock(&swt_warn_a);
	mutex_unlock(&swt_warn_a);
	mutex_unlock(&swt_warn_b);
}

static void swt_warn_sleep(void)
{
	spin_lock(&swt_warn_lock);
	msleep(20);
	spin_unlock(&swt_warn_lock);
}

static int __init swt_warn_init(void)
{
	if (!strcmp(plant, "uaf"))
		swt_warn_uaf();
	else if (!strcmp(plant, "lockorder"))
		swt_warn_lockorder();
	else if (!strcmp(plant, "sleep"))
		swt_warn_sleep();
	else
		WARN(1, "swt_warn: planted warning for the harness self-test\n");
	return 0;
}

static void __exit swt_warn_exit(void)
{
}

module_init(swt_warn_init);
module_exit(swt_warn_exit);
MODULE_DESCRIPTION("dm-swaptier VM harness self-test: planted bugs");
MODULE_LICENSE("GPL");
