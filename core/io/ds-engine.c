/* ds-engine.c: engine lookup
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-engine.h"

const DsEngineOps *
ds_engine_lookup (const char *name)
{
  static const DsEngineOps *const engines[] = {
    &ds_engine_sync,
    &ds_engine_uring,
    &ds_engine_threads,
  };

  if (name == NULL)
    return NULL;

  for (size_t i = 0; i < G_N_ELEMENTS (engines); i++)
    if (strcmp (engines[i]->name, name) == 0)
      return engines[i];

  return NULL;
}
