/* fuzz-fio-import.c: libFuzzer target for the fio JSON importer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ds_fio_import_data() must turn any bytes into either jobs or a
 * DS_ERROR_CORRUPT error, never a crash.  What it imports must hold
 * together like a loaded result: it renders as a text report that prints
 * safely, compares with itself, exports as a fio job (on the file it
 * names, or refused saying to pass --filename; on one given, always), saves
 * as JSON, and that JSON loads again; its warnings print safely.  Seeds:
 * tests/fixtures/fio/; run it with FUZZ_TARGET=fio tests/bench/fuzz-loader.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ds-compare.h"
#include "ds-compare-format.h"
#include "ds-error.h"
#include "ds-fio.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) warnings = NULL;
  g_autoptr (GPtrArray) jobs = NULL;

  jobs = ds_fio_import_data ((const char *) data, (gssize) size, "fuzz.json", &warnings, &error);

  if ((jobs == NULL) == (error == NULL))
    abort ();
  if (error != NULL)
    {
      static const int codes[] = { DS_ERROR_CORRUPT, -1 };

      ds_fuzz_check_error ("ds_fio_import_data", error, codes);
      return 0;
    }
  if (jobs->len == 0)
    abort ();
  for (guint w = 0; warnings != NULL && w < warnings->len; w++)
    ds_fuzz_check_inert ("a warning", warnings->pdata[w]);

  for (guint i = 0; i < jobs->len; i++)
    {
      DsFioJob *job = jobs->pdata[i];
      DsResult *pair[2] = { job->result, job->result };
      g_autofree char *report = ds_report_text (job->result, DS_UNITS_MB);
      g_autoptr (GError) job_error = NULL;
      g_autofree char *own_job = ds_fio_job_from_result (job->result, NULL, &job_error);
      g_autofree char *fio_job = ds_fio_job_from_result (job->result, "/dev/null", NULL);
      g_autoptr (DsComparison) cmp = ds_comparison_new (pair, NULL, 2, NULL);
      g_autofree char *table = cmp ? ds_comparison_to_text (cmp, DS_UNITS_MB) : NULL;
      g_autoptr (GError) again_error = NULL;
      g_autoptr (DsResult) again = NULL;
      g_autofree char *text = NULL;
      gsize length = 0;

      if (report == NULL || fio_job == NULL || table == NULL)
        abort ();
      ds_fuzz_check_inert ("the report", report);
      ds_fuzz_check_inert ("the comparison", table);
      /* On the path fio's JSON gave: a job, or refused with the way out. */
      if (own_job == NULL && (job_error == NULL || strstr (job_error->message, "--filename") == NULL))
        {
          fprintf (stderr, "no job on the result's own file: %s\n",
                   job_error ? job_error->message : "no error");
          abort ();
        }
      if (job_error != NULL)
        ds_fuzz_check_inert ("the refusal", job_error->message);
      text = ds_result_to_data (job->result, &length);
      again = ds_result_load_data (text, (gssize) length, &again_error);
      if (again == NULL)
        {
          fprintf (stderr, "an imported fio job does not load after saving: %s\n",
                   again_error->message);
          abort ();
        }
    }

  return 0;
}
