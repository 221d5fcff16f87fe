/* SPDX-License-Identifier: GPL-2.0-only */
/* Host shim for <linux/string.h>. */
#ifndef SHIM_LINUX_STRING_H
#define SHIM_LINUX_STRING_H
#include <string.h>
#include <strings.h>
#endif
