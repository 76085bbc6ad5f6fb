/* ds-clock.h: monotonic nanoseconds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdint.h>
#include <time.h>

#define DS_NS_PER_SEC  UINT64_C(1000000000)
#define DS_NS_PER_MSEC UINT64_C(1000000)
#define DS_NS_PER_USEC UINT64_C(1000)

static inline uint64_t
ds_clock_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * DS_NS_PER_SEC + (uint64_t) ts.tv_nsec;
}
