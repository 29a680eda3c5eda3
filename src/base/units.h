/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_UNITS_H
#define AB_UNITS_H

#include <stdint.h>

#define AB_MIB ((uint64_t)1 << 20)

#endif
