/* ds-erase-compare.c: Erase results side by side
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "ds-bench-erase.h"
#include "ds-figures.h"
#include "ds-result.h"

static double
rate (uint64_t bytes,
      uint64_t ns)
{
  return ns > 0 && bytes > 0 ? (double) bytes / ((double) ns / 1e9) : NAN;
}

void
ds_erase_compare_rows (const DsResult *result,
                       DsFigures      *f)
{
  const DsEraseData *d = result->data;
  const char *s = "Erase";

  ds_figures_add (f, "size", s, "To erase", "", DS_COMPARE_BYTES, TRUE, (double) d->size_bytes);
  ds_figures_add (f, "done", s, "Erased", "", DS_COMPARE_BYTES, TRUE, (double) d->bytes_done);
  ds_figures_add (f, "erase_rate", s, "Erase rate", "", DS_COMPARE_RATE, TRUE, rate (d->bytes_done, d->erase_ns));
  ds_figures_add (f, "erase_time", s, "Erase time", "", DS_COMPARE_TIME, FALSE,
                  d->erase_ns > 0 ? (double) d->erase_ns / 1e9 : NAN);
  ds_figures_add (f, "verified", s, "Read back", "", DS_COMPARE_BYTES, TRUE,
                  d->verify ? (double) d->bytes_verified : NAN);
  ds_figures_add (f, "verify_rate", s, "Verify rate", "", DS_COMPARE_RATE, TRUE,
                  rate (d->bytes_verified, d->verify_ns));
  ds_figures_add (f, "write_errors", s, "Blocks not written", "", DS_COMPARE_BYTES, FALSE,
                  (double) d->write_errors.total_bytes);
  ds_figures_add (f, "mismatches", s, "Blocks that read back otherwise", "", DS_COMPARE_BYTES, FALSE,
                  d->verify ? (double) d->mismatches.total_bytes : NAN);
  ds_figures_add (f, "survived", s, "Blocks whose data survived a discard", "", DS_COMPARE_BYTES, FALSE,
                  ds_erase_method_overwrites (d->method) ? NAN : (double) d->survived.total_bytes);
  ds_figures_note (f, d->verified ? "every byte read back as written" :
                      d->verify ? "the read-back did not confirm every byte" : "not read back");
}
