/* test-cli-memory.c: a run whose memory the system refuses says how much
 * it needed, made of what, and what lowers it; it writes nothing and
 * keeps its result (no root, no device: regular files in the scratch
 * folder)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The limit is the address space (prlimit --as, as `ulimit -v` sets it).
 * An ASan build reserves terabytes of it for its shadow memory, so there
 * the same refusal comes from ASan's allocator instead
 * (max_allocation_size_mb with allocator_may_return_null): the program's
 * path from a NULL allocation to its message is the same.
 */
#include "config.h"

#include <check.h>
#include <string.h>
#include <unistd.h>

#include <json-glib/json-glib.h>

#include "ds-test-util.h"

#define MiB (UINT64_C (1) << 20)
#define note ds_test_note

#if defined(__SANITIZE_ADDRESS__)
# define UNDER_ASAN 1
#elif defined(__has_feature)
# if __has_feature(address_sanitizer)
#  define UNDER_ASAN 1
# endif
#endif

static char *target;      /* a 16 MiB file */

static void
setup (void)
{
  target = ds_test_make_file ("target.bin", 16 * MiB, 1);
}

static void
teardown (void)
{
  unlink (target);
  g_clear_pointer (&target, g_free);
}

static gboolean
contains (const char *haystack,
          const char *needle)
{
  return haystack != NULL && strstr (haystack, needle) != NULL;
}

/* diskscope-cli @args with at most @limit_mib MiB of address space (under
 * ASan: with no single allocation above @limit_mib MiB, or 256: a thread's
 * buffers are one allocation). */
static int
run_limited (guint               limit_mib,
             const char *const  *args,
             char              **ret_out,
             char              **ret_err)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  const char *asan = g_getenv ("ASAN_OPTIONS");
  int rc;

#ifdef UNDER_ASAN
  g_ptr_array_add (argv, g_strdup ("env"));
  g_ptr_array_add (argv, g_strdup_printf ("ASAN_OPTIONS=%s%sallocator_may_return_null=1:"
                                          "max_allocation_size_mb=%u",
                                          asan ? asan : "", asan ? ":" : "", MIN (limit_mib, 256)));
#else
  (void) asan;
  g_ptr_array_add (argv, g_strdup ("prlimit"));
  g_ptr_array_add (argv, g_strdup_printf ("--as=%" G_GUINT64_FORMAT, limit_mib * MiB));
  g_ptr_array_add (argv, g_strdup ("--"));
#endif
  g_ptr_array_add (argv, g_strdup (ds_test_cli_path ()));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup (args[i]));
  g_ptr_array_add (argv, NULL);

  rc = ds_test_run ((const char *const *) argv->pdata, ret_out, ret_err);
  if (ret_err != NULL && *ret_err != NULL)
    g_strstrip (*ret_err);
  return rc;
}

/* The I/O loop's buffers: queue depth × block × threads, said so. */
START_TEST (test_io_buffers)
{
  static const struct {
    const char *depth;
    const char *block;
    const char *threads;
    const char *engine;
    const char *said;
  } cases[] = {
    { "4096", "1M", "1", "auto",
      "could not allocate 4 GiB of I/O buffers (queue depth 4096 × 1 MiB blocks × 1 thread): "
      "Cannot allocate memory; lower --queue-depth, --threads or --block-size" },
    { "256", "4M", "4", "auto",
      "could not allocate 4 GiB of I/O buffers (queue depth 256 × 4 MiB blocks × 4 threads): "
      "Cannot allocate memory; lower --queue-depth, --threads or --block-size" },
    /* Each thread's buffers fit; both threads' do not. */
    { "512", "1M", "2", "io_uring",
      "could not allocate 1 GiB of I/O buffers (queue depth 512 × 1 MiB blocks × 2 threads)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *args[] = { "workload", target, "--pattern", "randread", "--queue-depth",
                             cases[i].depth, "--block-size", cases[i].block, "--threads",
                             cases[i].threads, "--engine", cases[i].engine, "--duration",
                             "200ms", "--no-progress", "--json", NULL };
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      g_autoptr (JsonParser) parser = json_parser_new ();
      int rc = run_limited (1024, args, &out, &err);

      note ("qd %s × %s × %s threads (%s) in 1 GiB: exit %d: %s", cases[i].depth, cases[i].block,
            cases[i].threads, cases[i].engine, rc, err);
      ck_assert_msg (rc == 1, "exit %d (133 is an abort), want 1: %s", rc, err);
      ck_assert_msg (contains (err, cases[i].said), "“%s” not in: %s", cases[i].said, err);
      ck_assert_msg (contains (err, target), "the target is not named: %s", err);
      /* The result still comes out, holding the error. */
      ck_assert_msg (out != NULL && json_parser_load_from_data (parser, out, -1, NULL),
                     "no result: %.300s", out);
      ck_assert_msg (contains (out, "could not allocate"), "the result lacks the error: %.300s", out);
    }
}
END_TEST

/* The lowest address-space limit, in MiB, at which @args still runs. */
static guint
lowest_limit (const char *const *args)
{
  guint ok = 0;

#ifdef UNDER_ASAN
  /* The limit is per allocation there: 2 MiB holds the small ones. */
  ok = 2;
  (void) args;
#else
  guint fails = 4;

  ok = 256;
  ck_assert_msg (run_limited (ok, args, NULL, NULL) == 0, "%s does not run with 256 MiB", args[0]);
  /* Within 2 MiB of the least it needs: a buffer of 16 MiB more cannot fit. */
  while (ok - fails > 2)
    {
      guint mid = (ok + fails) / 2;

      if (run_limited (mid, args, NULL, NULL) == 0)
        ok = mid;
      else
        fails = mid;
    }
#endif
  return ok;
}

/* The error scan's block buffer, and the erase's two: the block size is
 * named, and an erase that could not start wrote nothing. */
START_TEST (test_scan_and_erase_buffers)
{
  const char *small_scan[] = { "scan", target, "--block-size", "4K", "--json", NULL };
  const char *big_scan[] = { "scan", target, "--block-size", "16M", "--json", NULL };
  g_autofree char *destroy = g_strdup_printf ("--destroy-data=%s", target);
  const char *big_erase[] = { "erase", target, destroy, "--zeros", "--block-size", "64M", NULL };
  g_autofree char *before = ds_test_checksum (target);
  g_autofree char *after = NULL;
  g_autofree char *err = NULL;
  g_autofree char *err2 = NULL;
  guint limit;
  int rc;

  limit = lowest_limit (small_scan);
  rc = run_limited (limit, big_scan, NULL, &err);
  note ("scan --block-size 16M in %u MiB: exit %d: %s", limit, rc, err);
  ck_assert_msg (rc == 1, "exit %d, want 1: %s", rc, err);
  ck_assert_msg (contains (err, "could not allocate the scan's 16 MiB block buffer: Cannot "
                           "allocate memory; lower --block-size"), "%s", err);

  /* Found with the scan (which reads): the erase at 64K would write. */
  rc = run_limited (limit, big_erase, NULL, &err2);
  note ("erase --block-size 64M in %u MiB: exit %d: %s", limit, rc, err2);
  ck_assert_msg (rc == 1, "exit %d, want 1: %s", rc, err2);
  ck_assert_msg (contains (err2, "could not allocate the erase's buffers (2 × 64 MiB blocks, "
                           "to write and to verify): Cannot allocate memory; lower "
                           "--block-size; nothing was written"), "%s", err2);
  after = ds_test_checksum (target);
  ck_assert_str_eq (before, after);
}
END_TEST

static Suite *
cli_memory_suite (void)
{
  Suite *suite = suite_create ("cli-memory");
  TCase *tc = tcase_create ("memory");

  tcase_set_timeout (tc, 240);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_io_buffers);
  tcase_add_test (tc, test_scan_and_erase_buffers);
  suite_add_tcase (suite, tc);

  return suite;
}

int
main (void)
{
  ds_test_init ("cli-memory");
  return ds_test_run_suite (cli_memory_suite ());
}
