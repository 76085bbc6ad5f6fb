/* test-device-sysfs.c: the small sysfs readers and the natural name order
 * of the device layer (core/device/ds-device-sysfs.c), on a fake sysfs
 * folder in a temporary directory: no root, no device
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An attribute is read stripped, and missing or blank is NULL; a number
 * is decimal or not at all (the fallback then); the scheduler is the word
 * in brackets; names sort as a person would (loop2 before loop10), and a
 * disk's partitions are its subfolders that have a `partition` attribute.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "ds-device-facts.h"
#include "ds-test-util.h"

static char *dir;

static void
setup (void)
{
  dir = g_dir_make_tmp ("ds-device-sysfs-XXXXXX", NULL);
  ck_assert_ptr_nonnull (dir);
}

static void
teardown (void)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);

  ck_assert_int_eq (system (cmd), 0);
  g_clear_pointer (&dir, g_free);
}

/* Writes @text to @rel under the fake sysfs folder, making its folders. */
static void
put (const char *rel,
     const char *text)
{
  g_autofree char *path = g_build_filename (dir, rel, NULL);
  g_autofree char *parent = g_path_get_dirname (path);

  ck_assert_int_eq (g_mkdir_with_parents (parent, 0755), 0);
  ck_assert (g_file_set_contents (path, text, -1, NULL));
}

static void
make_dir (const char *rel)
{
  g_autofree char *path = g_build_filename (dir, rel, NULL);

  ck_assert_int_eq (g_mkdir_with_parents (path, 0755), 0);
}

static char *
joined (char **names)
{
  return g_strjoinv (" ", names);
}

/* What sysfs gives: a value and a newline, stripped; white space on both
 * sides too; a missing, empty or blank attribute is NULL, as is a folder
 * (it cannot be read). */
START_TEST (test_read_attr)
{
  g_autofree char *size = NULL;
  g_autofree char *model = NULL;

  put ("queue/rotational", "1\n");
  put ("device/model", "  QEMU HARDDISK   \n");
  put ("empty", "");
  put ("blank", " \n\t\n");
  make_dir ("holders");

  size = ds_sysfs_read_attr (dir, "queue/rotational");
  ck_assert_str_eq (size, "1");
  model = ds_sysfs_read_attr (dir, "device/model");
  ck_assert_str_eq (model, "QEMU HARDDISK");
  ck_assert_ptr_null (ds_sysfs_read_attr (dir, "missing"));
  ck_assert_ptr_null (ds_sysfs_read_attr (dir, "empty"));
  ck_assert_ptr_null (ds_sysfs_read_attr (dir, "blank"));
  ck_assert_ptr_null (ds_sysfs_read_attr (dir, "holders"));
  ck_assert_ptr_null (ds_sysfs_read_attr ("/nonexistent-ds-sysfs", "size"));
}
END_TEST

/* A decimal number, with sysfs's newline; the largest 64-bit value; what
 * is not a number, is past 64 bits, or is missing is FALSE and leaves the
 * out-parameter as it was (and the fallback is returned). */
START_TEST (test_read_u64)
{
  uint64_t v = 77;

  put ("size", "209715200\n");
  put ("max", "18446744073709551615\n");
  put ("over", "18446744073709551616\n");
  put ("word", "none\n");
  put ("trailing", "512 bytes\n");
  put ("empty", "\n");

  ck_assert (ds_sysfs_read_u64 (dir, "size", &v));
  ck_assert_uint_eq (v, UINT64_C (209715200));
  ck_assert (ds_sysfs_read_u64 (dir, "max", &v));
  ck_assert_uint_eq (v, G_MAXUINT64);
  /* Digits first: the number they make. */
  ck_assert (ds_sysfs_read_u64 (dir, "trailing", &v));
  ck_assert_uint_eq (v, 512);

  v = 77;
  ck_assert (!ds_sysfs_read_u64 (dir, "over", &v));
  ck_assert (!ds_sysfs_read_u64 (dir, "word", &v));
  ck_assert (!ds_sysfs_read_u64 (dir, "empty", &v));
  ck_assert (!ds_sysfs_read_u64 (dir, "missing", &v));
  ck_assert_uint_eq (v, 77);

  ck_assert_uint_eq (ds_sysfs_read_u64_or (dir, "size", 9), UINT64_C (209715200));
  ck_assert_uint_eq (ds_sysfs_read_u64_or (dir, "word", 9), 9);
  ck_assert_uint_eq (ds_sysfs_read_u64_or (dir, "over", 9), 9);
  ck_assert_uint_eq (ds_sysfs_read_u64_or (dir, "missing", 4096), 4096);
  /* 0 is a value, not the fallback. */
  put ("zero", "0\n");
  ck_assert_uint_eq (ds_sysfs_read_u64_or (dir, "zero", 9), 0);
}
END_TEST

/* Exists: a file (even empty) or a folder; not: a missing name. */
START_TEST (test_attr_exists)
{
  put ("partition", "");
  make_dir ("holders");

  ck_assert (ds_sysfs_attr_exists (dir, "partition"));
  ck_assert (ds_sysfs_attr_exists (dir, "holders"));
  ck_assert (!ds_sysfs_attr_exists (dir, "loop/backing_file"));
}
END_TEST

/* The bracketed word of queue/scheduler; a lone word is itself; several
 * words without brackets, empty brackets, an unclosed bracket and NULL
 * say nothing. */
START_TEST (test_parse_scheduler)
{
  const struct {
    const char *text;
    const char *expected;
  } cases[] = {
    { "none [mq-deadline] kyber bfq", "mq-deadline" },
    { "[none] mq-deadline", "none" },
    { "mq-deadline kyber [bfq]", "bfq" },
    { "none", "none" },
    { "", "" },
    { "none mq-deadline", NULL },
    { "none [] kyber", NULL },
    { "none [mq-deadline kyber", NULL },
    { "[bfq", "[bfq" },
  };

  for (unsigned i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = ds_sysfs_parse_scheduler (cases[i].text);

      if (cases[i].expected == NULL)
        ck_assert_msg (got == NULL, "\"%s\" gave \"%s\"", cases[i].text, got);
      else
        ck_assert_msg (got != NULL && strcmp (got, cases[i].expected) == 0,
                       "\"%s\" gave \"%s\", not \"%s\"", cases[i].text,
                       got ? got : "(null)", cases[i].expected);
    }
  ck_assert_ptr_null (ds_sysfs_parse_scheduler (NULL));
}
END_TEST

static int
sign (int v)
{
  return v < 0 ? -1 : v > 0 ? 1 : 0;
}

/* Numbers inside names compare as numbers, the rest byte by byte; a
 * prefix comes first; equal is 0, and the order is antisymmetric. */
START_TEST (test_natural_compare)
{
  const struct {
    const char *a;
    const char *b;
    int         order;
  } cases[] = {
    { "loop2", "loop10", -1 },
    { "sda", "sdb", -1 },
    { "vda1", "vda10", -1 },
    { "vda9", "vda10", -1 },
    { "nvme0n1p2", "nvme0n1p10", -1 },
    { "nvme1n1", "nvme0n1p1", 1 },
    { "sda", "sda1", -1 },
    { "loop", "loop0", -1 },
    { "md127", "md127", 0 },
    { "", "", 0 },
    { "", "a", -1 },
    { "loop007", "loop7", 0 },
    { "dm-0", "loop0", -1 },
    { "sdz", "sdaa", 1 },
  };

  for (unsigned i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      int ab = sign (ds_natural_compare (cases[i].a, cases[i].b));
      int ba = sign (ds_natural_compare (cases[i].b, cases[i].a));

      ck_assert_msg (ab == cases[i].order, "%s against %s: %d, not %d",
                     cases[i].a, cases[i].b, ab, cases[i].order);
      ck_assert_msg (ba == -cases[i].order, "%s against %s: %d, not %d",
                     cases[i].b, cases[i].a, ba, -cases[i].order);
    }
}
END_TEST

/* ds_compare_names sorts a GPtrArray of names; ds_ptr_array_to_strv ends
 * it with NULL and gives its strings (empty array: an empty strv). */
START_TEST (test_sort_names)
{
  const char *names[] = { "loop10", "sda", "loop2", "nvme0n1", "loop1", "dm-3" };
  GPtrArray *array = g_ptr_array_new ();
  g_auto (GStrv) sorted = NULL;
  g_auto (GStrv) none = NULL;
  g_autofree char *text = NULL;

  for (unsigned i = 0; i < G_N_ELEMENTS (names); i++)
    g_ptr_array_add (array, g_strdup (names[i]));
  g_ptr_array_sort (array, ds_compare_names);
  sorted = ds_ptr_array_to_strv (array);
  text = joined (sorted);
  ck_assert_str_eq (text, "dm-3 loop1 loop2 loop10 nvme0n1 sda");
  ck_assert_ptr_null (sorted[G_N_ELEMENTS (names)]);

  none = ds_ptr_array_to_strv (g_ptr_array_new ());
  ck_assert_ptr_nonnull (none);
  ck_assert_ptr_null (none[0]);
}
END_TEST

/* holders/: every entry (folders, links, files alike), in natural order;
 * a missing or empty folder is an empty list, never NULL. */
START_TEST (test_list_dir_names)
{
  g_auto (GStrv) holders = NULL;
  g_auto (GStrv) empty = NULL;
  g_auto (GStrv) missing = NULL;
  g_autofree char *text = NULL;
  g_autofree char *link = g_build_filename (dir, "holders", "md127", NULL);

  make_dir ("holders/dm-10");
  make_dir ("holders/dm-2");
  put ("holders/dm-1", "");
  ck_assert_int_eq (symlink ("../../md127", link), 0);
  make_dir ("slaves");

  holders = ds_sysfs_list_dir_names (dir, "holders");
  text = joined (holders);
  ck_assert_str_eq (text, "dm-1 dm-2 dm-10 md127");

  empty = ds_sysfs_list_dir_names (dir, "slaves");
  ck_assert_ptr_nonnull (empty);
  ck_assert_ptr_null (empty[0]);
  missing = ds_sysfs_list_dir_names (dir, "no-such-folder");
  ck_assert_ptr_nonnull (missing);
  ck_assert_ptr_null (missing[0]);
}
END_TEST

/* A disk's partitions: the subfolders with a regular `partition` file, in
 * natural order; not its queue/, holders/, a subfolder whose `partition`
 * is a folder, or a plain file; a missing disk folder has none. */
START_TEST (test_list_partitions)
{
  g_auto (GStrv) parts = NULL;
  g_auto (GStrv) none = NULL;
  g_autofree char *text = NULL;

  put ("sda10/partition", "10\n");
  put ("sda2/partition", "2\n");
  put ("sda1/partition", "1\n");
  put ("queue/rotational", "0\n");
  make_dir ("holders");
  make_dir ("sdaX/partition");
  put ("partition", "");

  parts = ds_sysfs_list_partitions (dir);
  text = joined (parts);
  ck_assert_str_eq (text, "sda1 sda2 sda10");

  none = ds_sysfs_list_partitions ("/nonexistent-ds-sysfs");
  ck_assert_ptr_nonnull (none);
  ck_assert_ptr_null (none[0]);
}
END_TEST

/* The real /sys, read only: what every Linux machine has. */
START_TEST (test_real_sysfs)
{
  g_auto (GStrv) blocks = ds_sysfs_list_dir_names ("/sys", "class/block");
  g_autofree char *kernel = ds_sysfs_read_attr ("/proc/sys", "kernel/ostype");

  ck_assert_str_eq (kernel, "Linux");
  for (unsigned i = 0; blocks[i] != NULL && blocks[i + 1] != NULL; i++)
    ck_assert_msg (ds_natural_compare (blocks[i], blocks[i + 1]) < 0, "%s before %s",
                   blocks[i], blocks[i + 1]);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("device-sysfs");
  TCase *tc = tcase_create ("sysfs");

  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_read_attr);
  tcase_add_test (tc, test_read_u64);
  tcase_add_test (tc, test_attr_exists);
  tcase_add_test (tc, test_parse_scheduler);
  tcase_add_test (tc, test_natural_compare);
  tcase_add_test (tc, test_sort_names);
  tcase_add_test (tc, test_list_dir_names);
  tcase_add_test (tc, test_list_partitions);
  tcase_add_test (tc, test_real_sysfs);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
