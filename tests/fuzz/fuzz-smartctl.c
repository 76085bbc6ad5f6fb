/* fuzz-smartctl.c: fuzz target for smartctl's JSON (health --from-json,
 * the app's Open of a saved output)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The input is written to a file and read by ds_health_result_from_file()
 * (the bounded opener, the bounds scan, the parser, the verdict): a result
 * or DS_ERROR_CORRUPT, never a crash.  A result reports safely, exports no
 * fio job (health is not a workload) and saves as JSON that loads again.
 * Seeds: tests/fixtures/smartctl; run it with FUZZ_TARGET=smartctl
 * tests/bench/fuzz-loader.
 */
#include "config.h"

#include <glib/gstdio.h>

#include "ds-bench-health.h"
#include "ds-report.h"
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static char *scratch;
static char *input_path;

static void
remove_scratch (void)
{
  g_unlink (input_path);
  g_rmdir (scratch);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  /* smartctl saying it could not read the drive: its reasons. */
  static const int codes[] = { DS_ERROR_CORRUPT, DS_ERROR_PERMISSION, DS_ERROR_UNSUPPORTED,
                               DS_ERROR_NOT_FOUND, DS_ERROR_FAILED, -1 };
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) result = NULL;
  g_autofree char *report = NULL;

  if (scratch == NULL)
    {
      scratch = g_dir_make_tmp ("ds-fuzz-smart-XXXXXX", NULL);
      if (scratch == NULL)
        abort ();
      input_path = g_build_filename (scratch, "smartctl.json", NULL);
      atexit (remove_scratch);
    }
  if (!g_file_set_contents (input_path, (const char *) data, (gssize) size, NULL))
    abort ();

  result = ds_health_result_from_file (input_path, &error);
  if ((result == NULL) == (error == NULL))
    abort ();
  if (result == NULL)
    {
      ds_fuzz_check_error ("ds_health_result_from_file", error, codes);
      return 0;
    }

  report = ds_report_text (result, DS_UNITS_MB);
  ds_fuzz_check_inert ("the health report", report);
  ds_fuzz_check_round_trip ("a health result", result);

  return 0;
}
