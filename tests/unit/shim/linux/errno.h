/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SHIM_LINUX_ERRNO_H
#define SHIM_LINUX_ERRNO_H
#include <asm/errno.h>
#endif
