/* ds-cli-erase.c: `diskscope-cli erase`, a gated full overwrite or discard
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-bench-erase.h"
#include "ds-cli.h"
#include "ds-cli-job.h"
#include "ds-error.h"

int
ds_cli_erase (int    argc,
              char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (N_("TARGET — erase every byte of TARGET"));
  g_autoptr (GError) error = NULL;
  g_autofree char *destroy = NULL;
  g_autofree char *block = NULL;
  gboolean zeros = FALSE, random = FALSE, discard = FALSE, secure = FALSE;
  gboolean verify = FALSE, no_verify = FALSE;
  g_auto (DsCliJobArgs) job = { 0 };
  DsCliJobOptions options;
  DsBenchSpec spec;
  int status;
  GOptionEntry entries[] = {
    { "destroy-data", 0, 0, G_OPTION_ARG_FILENAME, &destroy, N_("Confirm by naming the target again (required)"), N_("TARGET") },
    { "zeros", 0, 0, G_OPTION_ARG_NONE, &zeros, N_("Overwrite with zeros (the default)"), NULL },
    { "random", 0, 0, G_OPTION_ARG_NONE, &random, N_("Overwrite with pseudo-random data"), NULL },
    { "discard", 0, 0, G_OPTION_ARG_NONE, &discard, N_("Discard every block (BLKDISCARD; SSDs, thin volumes, zram, loop)"), NULL },
    { "secure", 0, 0, G_OPTION_ARG_NONE, &secure, N_("Secure discard (BLKSECDISCARD), where the device supports it"), NULL },
    { "verify", 0, 0, G_OPTION_ARG_NONE, &verify, N_("Read every byte back and compare (a discard does by default)"), NULL },
    { "no-verify", 0, 0, G_OPTION_ARG_NONE, &no_verify, N_("Do not read a discarded device back (whether it kept the data is then not known)"), NULL },
    { "block-size", 'b', 0, G_OPTION_ARG_STRING, &block, N_("Write size (default 4M)"), N_("SIZE") },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  ds_cli_job_args_add (&job, context);
  g_option_context_set_description (context,
    _("DESTROYS ALL DATA on TARGET.  The same safety gate as write tests: the device\n"
    "must not be mounted or in use, and --destroy-data must name it.  Every byte\n"
    "is erased, a file's last bytes that do not fill a sector too.  After an\n"
    "overwrite the drive's cache is flushed; --verify then reads everything back.\n"
    "A discard is only as final as the device makes it (a device may keep the\n"
    "data and still report success): it is read back by default, every byte\n"
    "must read as zero, and the result says where the old data survived."));
  if (!ds_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return ds_cli_complain (DS_CLI_USAGE, _("erase needs exactly one device or file (see --help)"));
  if (zeros + random + discard + secure > 1)
    return ds_cli_complain (DS_CLI_USAGE, _("choose one of --zeros, --random, --discard and --secure"));
  if (verify && no_verify)
    return ds_cli_complain (DS_CLI_USAGE, _("choose --verify or --no-verify, not both"));
  if (!ds_cli_job_args_finish (&job, &options, &error))
    return ds_cli_fail (error);

  ds_bench_spec_init (&spec, DS_BENCH_ERASE);
  spec.target_path = g_strdup (argv[1]);
  spec.destroy_data = g_strdup (destroy);
  ds_erase_options (&spec)->method = random ? DS_ERASE_RANDOM : discard ? DS_ERASE_DISCARD :
                                     secure ? DS_ERASE_SECURE_DISCARD : DS_ERASE_ZEROS;
  /* A discard is verified unless the user says not to: a device may
   * accept it and keep every byte. */
  ds_erase_options (&spec)->verify = discard || secure ? !no_verify : verify;
  if (block != NULL && !ds_parse_size (block, &spec.block_size_bytes, &error))
    {
      ds_bench_spec_clear (&spec);
      return ds_cli_fail (error);
    }

  status = ds_cli_job_run (&spec, &options);
  ds_bench_spec_clear (&spec);

  return status;
}
