/* ds-figures.c: what the kinds share for their comparison hooks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-figures.h"
#include "ds-result.h"

uint64_t
ds_figures_tested_span (const DsResult *result)
{
  if (result->spec.capacity_bytes > 0 && result->spec.capacity_bytes < result->target.size_bytes)
    return result->spec.capacity_bytes;
  return result->target.size_bytes;
}
