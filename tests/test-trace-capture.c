/* test-trace-capture.c: what the capture (core/trace/ds-trace-capture.c)
 * does before it traces, and the event decoding it relies on
 *
 * Unit suite: no root, no device opened.  Capturing needs root and
 * tracefs (tests/test-int-trace.c); here, what does not: a device that is
 * missing, a regular file, a folder or a character device is refused with
 * its message before tracefs is touched, and no capture file is made;
 * tracefs found where it is mounted, and for an unprivileged user (as
 * root, a forked case drops to "nobody") the refusal that says capture
 * needs root, from ds_trace_tracefs_dir() and from a capture of a real
 * block device, leaving no file.  And the kernel's event format files as
 * ds-trace-ring.c reads them for the capture (fields and sizes of
 * block_rq_issue and block_rq_complete as Linux 6.x prints them, a format
 * without the fields refused) and one raw event decoded by them, a
 * truncated one not read past its end.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <grp.h>
#include <pwd.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "ds-error.h"
#include "ds-test-util.h"
#include "ds-trace.h"

#define TRACEFS_REFUSAL "tracefs is not mounted and could not be mounted on /sys/kernel/tracing " \
                        "(Operation not permitted): capture needs root and a kernel with tracing"

/* A capture file's path nobody made: in the temporary folder (as "nobody"
 * the scratch folder, root's, is out of reach). */
static char *
output_path (void)
{
  return g_strdup_printf ("%s/ds-test-capture-%d.dstrace", g_get_tmp_dir (), (int) getpid ());
}

static gboolean
capture (const char  *device,
         const char  *output,
         GError     **error)
{
  DsTraceCaptureSpec spec = { .device = device, .output = output, .duration_ns = 1 };
  DsTraceCaptureResult res;

  memset (&res, 0x5A, sizeof res);
  if (ds_trace_capture (&spec, &res, error))
    return TRUE;
  /* Left alone on failure. */
  for (gsize i = 0; i < sizeof res; i++)
    ck_assert_uint_eq (((guint8 *) &res)[i], 0x5A);
  return FALSE;
}

/* From now on this (forked) test runs as "nobody", when it was root. */
static void
drop_root (void)
{
  struct passwd *nobody;

  if (geteuid () != 0)
    return;
  nobody = getpwnam ("nobody");
  ck_assert_msg (nobody != NULL, "no user “nobody” to run as");
  ck_assert (setgroups (0, NULL) == 0);
  ck_assert (setgid (nobody->pw_gid) == 0);
  ck_assert (setuid (nobody->pw_uid) == 0);
  ck_assert_uint_eq (geteuid (), nobody->pw_uid);
}

/* A block device of this machine (read nowhere: only its numbers). */
static char *
some_block_device (void)
{
  g_autoptr (GDir) dir = g_dir_open ("/sys/class/block", 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  for (guint i = 0; i < names->len; i++)
    {
      char *dev = g_build_filename ("/dev", names->pdata[i], NULL);
      GStatBuf st;

      if (g_stat (dev, &st) == 0 && S_ISBLK (st.st_mode))
        return dev;
      g_free (dev);
    }
  return NULL;
}

/* Not a block device: refused by name, before tracefs, no file made. */
START_TEST (test_not_block)
{
  g_autofree char *file = ds_test_make_file ("plain.img", 65536, 1);
  g_autofree char *missing = ds_test_scratch_path ("no-such-device");
  g_autofree char *output = ds_test_scratch_path ("out.dstrace");
  const char *const refused[] = { file, ds_test_scratch_dir (), "/dev/null" };

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *message = g_strdup_printf ("%s is not a block device", refused[i]);

      ck_assert (!capture (refused[i], output, &error));
      ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID), "%s", error->message);
      ck_assert_str_eq (error->message, message);
      ck_assert (!g_file_test (output, G_FILE_TEST_EXISTS));
    }
  {
    g_autoptr (GError) error = NULL;
    g_autofree char *message = g_strdup_printf ("%s: No such file or directory", missing);

    ck_assert (!capture (missing, output, &error));
    ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_NOT_FOUND));
    ck_assert_str_eq (error->message, message);
    ck_assert (!g_file_test (output, G_FILE_TEST_EXISTS));
  }
}
END_TEST

/* Where tracefs is mounted and readable (root), that is the answer; no
 * mount is attempted here when it is not. */
START_TEST (test_tracefs_found)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL;

  if (geteuid () != 0 || !g_file_test ("/sys/kernel/tracing/instances", G_FILE_TEST_IS_DIR))
    {
      ds_test_note ("not root with /sys/kernel/tracing mounted: the found case is not checked");
      return;
    }
  dir = ds_trace_tracefs_dir (&error);
  ck_assert_msg (dir != NULL, "%s", error ? error->message : "");
  ck_assert_str_eq (dir, "/sys/kernel/tracing");
  ck_assert_ptr_null (error);
}
END_TEST

/* Unprivileged: tracefs is out of reach (and cannot be mounted), which is
 * said so; a capture of a real block device stops there, no file made. */
START_TEST (test_unprivileged)
{
  g_autofree char *output = output_path ();
  g_autofree char *device = some_block_device ();
  g_autofree char *dir = NULL;
  g_autoptr (GError) error = NULL;

  drop_root ();
  dir = ds_trace_tracefs_dir (&error);
  if (dir != NULL)
    {
      /* A system whose tracefs anyone may read: the instance is refused. */
      ds_test_note ("tracefs readable without root at %s", dir);
      ck_assert (device != NULL);
      ck_assert (!capture (device, output, &error));
      ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_PERMISSION), "%s", error->message);
      ck_assert_ptr_nonnull (strstr (error->message, "/instances/diskscope-"));
      ck_assert (!g_file_test (output, G_FILE_TEST_EXISTS));
      return;
    }
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_PERMISSION));
  ck_assert_str_eq (error->message, TRACEFS_REFUSAL);
  g_clear_error (&error);
  if (device == NULL)
    {
      ds_test_note ("no block device in /dev: the capture's refusal is not checked");
      return;
    }
  ck_assert (!capture (device, output, &error));
  ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_PERMISSION), "%s: %s", device, error->message);
  ck_assert_str_eq (error->message, TRACEFS_REFUSAL);
  ck_assert (!g_file_test (output, G_FILE_TEST_EXISTS));
}
END_TEST

/* As Linux 6.x prints them (the print fmt line cut). */
static const char issue_format[] =
  "name: block_rq_issue\n"
  "ID: 2104\n"
  "format:\n"
  "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
  "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
  "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
  "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
  "\n"
  "\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"
  "\tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n"
  "\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n"
  "\tfield:unsigned int bytes;\toffset:28;\tsize:4;\tsigned:0;\n"
  "\tfield:unsigned short ioprio;\toffset:32;\tsize:2;\tsigned:0;\n"
  "\tfield:char rwbs[10];\toffset:34;\tsize:10;\tsigned:0;\n"
  "\tfield:char comm[16];\toffset:44;\tsize:16;\tsigned:0;\n"
  "\tfield:__data_loc char[] cmd;\toffset:60;\tsize:4;\tsigned:0;\n"
  "\n"
  "print fmt: \"%d,%d %s %u (%s) %llu + %u %s,%u,%u [%s]\", ((unsigned int) ((REC->dev) >> 20))\n";

static const char complete_format[] =
  "name: block_rq_complete\n"
  "ID: 2107\n"
  "format:\n"
  "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
  "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
  "\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"
  "\tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n"
  "\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n"
  "\tfield:int error;\toffset:28;\tsize:4;\tsigned:1;\n"
  "\tfield:unsigned short ioprio;\toffset:32;\tsize:2;\tsigned:0;\n"
  "\tfield:char rwbs[10];\toffset:34;\tsize:10;\tsigned:0;\n"
  "\tfield:__data_loc char[] cmd;\toffset:44;\tsize:4;\tsigned:0;\n";

static void
load (const char    *name,
      const char    *text,
      DsTraceFormat *ret_format)
{
  g_autofree char *path = ds_test_scratch_path (name);
  g_autoptr (GError) error = NULL;

  ck_assert (g_file_set_contents (path, text, -1, NULL));
  ck_assert_msg (ds_trace_format_load (path, ret_format, &error), "%s", error ? error->message : "");
}

START_TEST (test_format_load)
{
  DsTraceFormat f;

  load ("issue.format", issue_format, &f);
  ck_assert_str_eq (f.name, "block_rq_issue");
  ck_assert_uint_eq (f.id, 2104);
  ck_assert_int_eq (f.off_pid, 4);
  ck_assert_int_eq (f.off_dev, 8);
  ck_assert_int_eq (f.off_sector, 16);
  ck_assert_int_eq (f.off_nr_sector, 24);
  ck_assert_int_eq (f.off_bytes, 28);
  ck_assert_int_eq (f.off_error, -1);
  ck_assert_int_eq (f.off_rwbs, 34);
  ck_assert_int_eq (f.size_rwbs, 10);
  ck_assert_int_eq (f.off_comm, 44);
  ck_assert_int_eq (f.size_comm, 16);

  load ("complete.format", complete_format, &f);
  ck_assert_str_eq (f.name, "block_rq_complete");
  ck_assert_uint_eq (f.id, 2107);
  ck_assert_int_eq (f.off_error, 28);
  ck_assert_int_eq (f.off_bytes, -1);
  ck_assert_int_eq (f.off_comm, -1);
  ck_assert_int_eq (f.off_rwbs, 34);
}
END_TEST

START_TEST (test_format_refused)
{
  g_autofree char *path = ds_test_scratch_path ("bad.format");
  g_autofree char *message = g_strdup_printf ("%s: the event has no dev, sector, nr_sector or rwbs field",
                                              path);
  g_autofree char *no_rwbs = g_strdup (issue_format);
  g_autofree char *no_id = g_strdup (issue_format);
  const char *cases[] = { "", "name: block_rq_issue\nID: 7\n", NULL, NULL };
  DsTraceFormat f = { .id = 4242 };

  /* Without its rwbs field; without its ID line. */
  memcpy (strstr (no_rwbs, "rwbs["), "xxxx", 4);
  cases[2] = no_rwbs;
  memcpy (strstr (no_id, "ID: "), "Id: ", 4);
  cases[3] = no_id;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;

      ck_assert (g_file_set_contents (path, cases[i], -1, NULL));
      ck_assert_msg (!ds_trace_format_load (path, &f, &error), "case %u", i);
      ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_UNSUPPORTED));
      ck_assert_str_eq (error->message, message);
      ck_assert_uint_eq (f.id, 4242);       /* left alone */
    }
  {
    g_autoptr (GError) error = NULL;

    ck_assert (g_unlink (path) == 0);
    ck_assert (!ds_trace_format_load (path, &f, &error));
    ck_assert (g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT));
  }
}
END_TEST

/* One block_rq_issue as the ring buffer holds it, decoded. */
START_TEST (test_decode)
{
  DsTraceFormat f;
  DsTraceEvent e;
  uint8_t raw[64] = { 0 };
  uint16_t type = 2104;
  int32_t pid = 4242, error = -5;
  uint32_t dev = (259u << 20) | 3, nr = 16, got_dev = 7;
  uint64_t sector = UINT64_C (123456789);

  load ("issue.format", issue_format, &f);
  memcpy (raw, &type, 2);
  memcpy (raw + 4, &pid, 4);
  memcpy (raw + 8, &dev, 4);
  memcpy (raw + 16, &sector, 8);
  memcpy (raw + 24, &nr, 4);
  memcpy (raw + 34, "WFS", 3);
  memcpy (raw + 44, "postgres-writer-", 16);   /* 16 bytes, no NUL */
  ds_trace_format_decode (&f, raw, sizeof raw, &e, &got_dev);
  ck_assert_uint_eq (got_dev, dev);
  ck_assert_uint_eq (e.sector, sector);
  ck_assert_uint_eq (e.bytes, 16 * 512);
  ck_assert_uint_eq (e.pid, 4242);
  ck_assert_uint_eq (e.op, DS_TRACE_OP_WRITE);
  ck_assert_uint_eq (e.flags, DS_TRACE_FLAG_FUA | DS_TRACE_FLAG_SYNC);
  ck_assert_str_eq (e.comm, "postgres-writer");
  ck_assert_int_eq (e.error, 0);
  ck_assert_uint_eq (e.ts_ns, 0);           /* the caller's */

  /* A completion carries the error. */
  load ("complete.format", complete_format, &f);
  memcpy (raw + 28, &error, 4);
  memcpy (raw + 34, "R\0\0", 3);
  ds_trace_format_decode (&f, raw, 48, &e, &got_dev);
  ck_assert_int_eq (e.error, -5);
  ck_assert_uint_eq (e.op, DS_TRACE_OP_READ);
  ck_assert_str_eq (e.comm, "");

  /* Cut before its rwbs ends: nothing read, all zero. */
  memset (&e, 0xFF, sizeof e);
  ds_trace_format_decode (&f, raw, 43, &e, &got_dev);
  ck_assert_uint_eq (got_dev, 0);
  ck_assert_uint_eq (e.sector, 0);
  ck_assert_uint_eq (e.bytes, 0);
  ck_assert_uint_eq (e.pid, 0);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("trace-capture");
  TCase *tc = tcase_create ("core");

  ds_test_init ("trace-capture");
  tcase_add_test (tc, test_not_block);
  tcase_add_test (tc, test_tracefs_found);
  tcase_add_test (tc, test_unprivileged);
  tcase_add_test (tc, test_format_load);
  tcase_add_test (tc, test_format_refused);
  tcase_add_test (tc, test_decode);
  suite_add_tcase (s, tc);
  return ds_test_run_suite (s);
}
