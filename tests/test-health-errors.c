/* test-health-errors.c: smartctl's output that holds no health at all, as
 * an error saying why (core/health/ds-health-errors.c)
 *
 * Unit suite: no root, no drive.  _ds_health_check_readable()
 * (ds-health-private.h) on each case it tells apart, in the order it
 * looks at them: smartctl's messages first (no permission, an unknown
 * USB bridge, no SMART to detect, no such device), then exit bits 0 and
 * 1, then a drive without SMART; each with its error code and its whole
 * message, the device's name, model and smartctl's messages escaped in
 * it.  Exit bits 2 to 7 are not its business, and every real output in
 * tests/fixtures/smartctl/ is readable.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <string.h>

#include "ds-error.h"
#include "ds-health-private.h"
#include "ds-test-util.h"

#define FIXTURES DS_TEST_FIXTURES_DIR "/smartctl"

/* The least output ds_health_parse() takes: a DsHealth with nothing read,
 * readable (SMART available, no bit, no message). */
static DsHealth *
blank_health (void)
{
  static const char least[] = "{\"json_format_version\": [1, 0], \"smartctl\": {\"exit_status\": 0}}";
  g_autoptr (GError) error = NULL;
  DsHealth *h = ds_health_parse (least, -1, -1, &error);

  ck_assert_msg (h != NULL, "%s", error ? error->message : "");
  ck_assert (h->smart_available);
  ck_assert_uint_eq (h->messages->len, 0);
  return h;
}

/* blank_health() as smartctl's output would have left it: the messages a
 * NULL-terminated list (NULL alone: none). */
static DsHealth *
health_with (const char *device,
             const char *model,
             int         exit_status,
             gboolean    smart_available,
             const char *first_message,
             ...)
{
  DsHealth *h = blank_health ();
  va_list args;

  g_free (h->device);
  h->device = g_strdup (device);
  g_free (h->model);
  h->model = g_strdup (model);
  h->exit_status = exit_status;
  h->smart_available = smart_available;
  va_start (args, first_message);
  for (const char *m = first_message; m != NULL; m = va_arg (args, const char *))
    g_ptr_array_add (h->messages, g_strdup (m));
  va_end (args);
  return h;
}

static void
assert_unreadable (DsHealth   *h,
                   gint        code,
                   const char *message)
{
  g_autoptr (GError) error = NULL;
  guint n_messages = h->messages->len;

  ck_assert (!_ds_health_check_readable (h, &error));
  ck_assert_msg (g_error_matches (error, DS_ERROR, code), "code %d, expected %d: %s",
                 error ? error->code : -1, code, error ? error->message : "no error");
  ck_assert_str_eq (error->message, message);
  /* The messages are as they were (joined on a copy's NULL, taken off). */
  ck_assert_uint_eq (h->messages->len, n_messages);
  /* No error asked for: still FALSE. */
  ck_assert (!_ds_health_check_readable (h, NULL));
}

START_TEST (test_permission)
{
  g_autoptr (DsHealth) denied = health_with ("/dev/sdb", NULL, 2, TRUE,
                                             "Smartctl open device: /dev/sdb failed: Permission denied",
                                             NULL);
  /* Before every other case: here a USB bridge and exit bit 0 too. */
  g_autoptr (DsHealth) not_permitted = health_with ("/dev/sdc", NULL, 1, FALSE,
                                                    "Unknown USB bridge",
                                                    "open: Operation not permitted", NULL);

  assert_unreadable (denied, DS_ERROR_PERMISSION,
                     "smartctl could not open /dev/sdb: Smartctl open device: /dev/sdb failed: "
                     "Permission denied. Reading SMART needs root (sudo diskscope-cli health ...)");
  assert_unreadable (not_permitted, DS_ERROR_PERMISSION,
                     "smartctl could not open /dev/sdc: Unknown USB bridge; open: Operation not "
                     "permitted. Reading SMART needs root (sudo diskscope-cli health ...)");
}
END_TEST

START_TEST (test_usb_bridge)
{
  /* The real message: exit bit 0, but not the command line's fault. */
  g_autoptr (DsHealth) h = health_with ("/dev/sdd", NULL, 1, TRUE,
                                        "/dev/sdd: Unknown USB bridge [0x152d:0x0578 (0x214)]",
                                        "Please specify device type with the -d option.", NULL);

  assert_unreadable (h, DS_ERROR_UNSUPPORTED,
                     "/dev/sdd is behind a USB bridge smartctl does not know (/dev/sdd: Unknown "
                     "USB bridge [0x152d:0x0578 (0x214)]; Please specify device type with the -d "
                     "option.): its SMART data may be reachable with smartctl -d sat (or -d "
                     "usbjmicron, -d usbsunplus, -d usbprolific), or the bridge hides it");
}
END_TEST

START_TEST (test_no_smart_device)
{
  g_autoptr (DsHealth) h = health_with ("/dev/loop0", NULL, 1, TRUE,
                                        "/dev/loop0: Unable to detect device type", NULL);

  assert_unreadable (h, DS_ERROR_UNSUPPORTED,
                     "/dev/loop0 has no SMART that smartctl can read (/dev/loop0: Unable to detect "
                     "device type): loop, zram, virtual and RAID-volume devices have none; a disk "
                     "behind a USB bridge or a RAID controller may need smartctl's -d option");
}
END_TEST

START_TEST (test_not_found)
{
  g_autoptr (DsHealth) device = health_with ("/dev/sdz", NULL, 2, TRUE,
                                             "Smartctl open device: /dev/sdz failed: No such device",
                                             NULL);
  g_autoptr (DsHealth) file = health_with ("/dev/nope", NULL, 1, TRUE,
                                           "/dev/nope: No such file or directory", NULL);
  /* The words alone, with neither bit 0 nor bit 1, are not "not found". */
  g_autoptr (DsHealth) words = health_with ("/dev/sda", "WDC", 4, TRUE,
                                            "Read Log failed: No such device", NULL);

  assert_unreadable (device, DS_ERROR_NOT_FOUND,
                     "/dev/sdz: no such device (Smartctl open device: /dev/sdz failed: No such device)");
  assert_unreadable (file, DS_ERROR_NOT_FOUND,
                     "/dev/nope: no such device (/dev/nope: No such file or directory)");
  ck_assert (_ds_health_check_readable (words, NULL));
}
END_TEST

START_TEST (test_exit_bits)
{
  g_autoptr (DsHealth) bit0 = health_with ("/dev/sda", NULL, 1, TRUE, NULL);
  g_autoptr (DsHealth) bits01 = health_with ("/dev/sda", NULL, 3, FALSE, "a", "b", NULL);
  g_autoptr (DsHealth) bit1 = health_with ("/dev/sda", NULL, 2, TRUE, NULL);
  g_autoptr (DsHealth) bit1_said = health_with ("/dev/sda", NULL, 2 | 64, TRUE,
                                                "Device is in STANDBY mode, exit(2)", NULL);

  assert_unreadable (bit0, DS_ERROR_FAILED,
                     "smartctl did not accept its command line (exit status 1): no message");
  assert_unreadable (bits01, DS_ERROR_FAILED,
                     "smartctl did not accept its command line (exit status 3): a; b");
  assert_unreadable (bit1, DS_ERROR_UNSUPPORTED,
                     "smartctl could not read /dev/sda (exit status 2: the device could not be "
                     "opened, did not identify itself, or is asleep): no message");
  assert_unreadable (bit1_said, DS_ERROR_UNSUPPORTED,
                     "smartctl could not read /dev/sda (exit status 66: the device could not be "
                     "opened, did not identify itself, or is asleep): Device is in STANDBY mode, exit(2)");

  /* Bits 2 to 7 are the verdict's: read what there is. */
  for (int bit = 2; bit < 8; bit++)
    {
      g_autoptr (DsHealth) h = health_with ("/dev/sda", NULL, 1 << bit, TRUE, "something failed", NULL);
      g_autoptr (GError) error = NULL;

      ck_assert_msg (_ds_health_check_readable (h, &error), "bit %d: %s", bit, error->message);
    }
  {
    g_autoptr (DsHealth) all = health_with ("/dev/sda", NULL, 0xfc, TRUE, NULL);

    ck_assert (_ds_health_check_readable (all, NULL));
  }
}
END_TEST

START_TEST (test_no_smart)
{
  g_autoptr (DsHealth) model = health_with ("/dev/sdc", "Generic Flash Disk", 4, FALSE, NULL);
  g_autoptr (DsHealth) bare = health_with ("/dev/sdc", NULL, 0, FALSE, NULL);
  g_autoptr (DsHealth) nameless = health_with (NULL, NULL, 0, FALSE, NULL);

  assert_unreadable (model, DS_ERROR_UNSUPPORTED,
                     "/dev/sdc Generic Flash Disk does not support SMART: there is no health data to read");
  assert_unreadable (bare, DS_ERROR_UNSUPPORTED,
                     "/dev/sdc does not support SMART: there is no health data to read");
  assert_unreadable (nameless, DS_ERROR_UNSUPPORTED,
                     "the device does not support SMART: there is no health data to read");
}
END_TEST

/* A saved output is anyone's: what it says is escaped in the message. */
START_TEST (test_escaped)
{
  g_autofree char *long_message = g_strnfill (5000, 'm');
  g_autoptr (DsHealth) h = health_with ("/dev/\033[2Jsda", "Evil\033]0;x\007", 0, FALSE, NULL);
  g_autoptr (DsHealth) said = health_with ("/dev/sda", NULL, 1, TRUE, "line\none\r\033[31m", NULL);
  g_autoptr (DsHealth) chatty = health_with ("/dev/sda", NULL, 1, TRUE, long_message, NULL);
  g_autoptr (GError) error = NULL;

  assert_unreadable (h, DS_ERROR_UNSUPPORTED,
                     "/dev/\\x1B[2Jsda Evil\\x1B]0;x\\x07 does not support SMART: there is no "
                     "health data to read");
  assert_unreadable (said, DS_ERROR_FAILED,
                     "smartctl did not accept its command line (exit status 1): line\\none\\r\\x1B[31m");
  /* Cut, not 5000 characters. */
  ck_assert (!_ds_health_check_readable (chatty, &error));
  ck_assert_msg (strlen (error->message) < 1200, "%zu bytes", strlen (error->message));
  ck_assert (g_str_has_prefix (error->message, "smartctl did not accept its command line (exit status 1): mmm"));
}
END_TEST

/* Through ds_health_parse(): every real output is readable, its bits and
 * messages as the file has them; the made one of an unknown USB bridge is
 * not. */
START_TEST (test_fixtures)
{
  static const struct { const char *file; int exit_status; } real[] = {
    { "WDC_WD20EFRX-68EUZN0_17.json", 0 },
    { "HGST_HUS724020ALE640_28.json", 64 },
    { "ST3500418AS_11.json", 0 },
    { "ST3500418AS_12.json", 0 },
    { "SAMSUNG_MZ7WD240HAFV-00003_21.json", 0 },
    { "SAMSUNG_MZVL21T0HCLR-00B00_23.json", 0 },
    { "nvme-null-CT250P2SSD8-nvme0.json", 0 },
    { "nvme-null-SAMSUNG_MZWLL3T2HAJQ-00005-nvme0.json", 8 },
    { "SEAGATE_ST373453LC_26.json", 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (real); i++)
    {
      g_autofree char *path = g_build_filename (FIXTURES, real[i].file, NULL);
      g_autofree char *text = NULL;
      g_autoptr (GError) error = NULL;
      g_autoptr (DsHealth) h = NULL;

      ck_assert (g_file_get_contents (path, &text, NULL, NULL));
      h = ds_health_parse (text, -1, -1, &error);
      ck_assert_msg (h != NULL, "%s: %s", real[i].file, error ? error->message : "");
      ck_assert_int_eq (h->exit_status, real[i].exit_status);
      ck_assert (h->smart_available);
      ck_assert_uint_eq (h->messages->len, 0);
      ck_assert (_ds_health_check_readable (h, NULL));
      /* The same output with exit bit 1 given by the caller: unreadable. */
      g_clear_pointer (&h, ds_health_free);
      h = ds_health_parse (text, -1, 2, &error);
      ck_assert_ptr_null (h);
      ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_UNSUPPORTED), "%s", error->message);
      ck_assert_msg (strstr (error->message, "(exit status 2: the device could not be opened") != NULL,
                     "%s", error->message);
    }

  {
    g_autofree char *path = g_build_filename (FIXTURES, "made", "unknown-usb-bridge.json", NULL);
    g_autofree char *text = NULL;
    g_autoptr (GError) error = NULL;
    g_autoptr (DsHealth) h = NULL;

    ck_assert (g_file_get_contents (path, &text, NULL, NULL));
    h = ds_health_parse (text, -1, -1, &error);
    ck_assert_ptr_null (h);
    ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_UNSUPPORTED));
    /* No "device": the last argument names it. */
    ck_assert (g_str_has_prefix (error->message, "/dev/sdd is behind a USB bridge smartctl does not "
                                 "know (/dev/sdd: Unknown USB bridge [0x152d:0x0578 (0x214)]; Please "
                                 "specify device type with the -d option.)"));
  }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("health-errors");
  TCase *tc = tcase_create ("readable");

  tcase_add_test (tc, test_permission);
  tcase_add_test (tc, test_usb_bridge);
  tcase_add_test (tc, test_no_smart_device);
  tcase_add_test (tc, test_not_found);
  tcase_add_test (tc, test_exit_bits);
  tcase_add_test (tc, test_no_smart);
  tcase_add_test (tc, test_escaped);
  tcase_add_test (tc, test_fixtures);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
