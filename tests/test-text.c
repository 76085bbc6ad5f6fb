/* test-text.c: ds_text_sanitize(), what stands between a file or a device
 * and the user's terminal
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-test-util.h"
#include "ds-text.h"

static void
assert_sanitized (const char *in,
                  const char *expected)
{
  g_autofree char *out = ds_text_sanitize (in);

  ck_assert_msg (g_strcmp0 (out, expected) == 0, "“%s” gave “%s”, expected “%s”",
                 in ? in : "(null)", out, expected);
  ck_assert (g_utf8_validate (out, -1, NULL));
}

/* Nothing a terminal acts on survives: no byte below 0x20, no DEL, no C1
 * control, no bidirectional override. */
static void
assert_inert (const char *out)
{
  const char *p;

  ck_assert (g_utf8_validate (out, -1, NULL));
  for (p = out; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      ck_assert_msg (c >= 0x20 && c != 0x7f && !(c >= 0x80 && c <= 0x9f) &&
                     !(c >= 0x202a && c <= 0x202e) && !(c >= 0x2066 && c <= 0x2069),
                     "U+%04X left in “%s”", c, out);
    }
}

START_TEST (test_plain_text_unchanged)
{
  assert_sanitized ("WDC WD40EFRX-68N32N0", "WDC WD40EFRX-68N32N0");
  assert_sanitized ("/dev/nvme0n1", "/dev/nvme0n1");
  assert_sanitized ("Диск Łódź 磁盘 µs – ≥", "Диск Łódź 磁盘 µs – ≥");
  assert_sanitized ("C:\\path\\with\\backslashes", "C:\\path\\with\\backslashes");
  assert_sanitized ("", "");
  assert_sanitized (NULL, "");
}
END_TEST

/* The examples of issue 8 (retitle, clear, fake lines) and more of the
 * same class. */
START_TEST (test_escape_sequences)
{
  assert_sanitized ("evil\033]0;pwned\007", "evil\\x1B]0;pwned\\x07");
  assert_sanitized ("\033[2J\033[H", "\\x1B[2J\\x1B[H");
  assert_sanitized ("model\r\nError: disk failed", "model\\r\\nError: disk failed");
  assert_sanitized ("tab\there", "tab\\there");
  assert_sanitized ("bell\007 backspace\b del\177", "bell\\x07 backspace\\x08 del\\x7F");
  /* OSC 52 writes the clipboard; DCS; 8-bit CSI (U+009B) and NEL. */
  assert_sanitized ("\033]52;c;ZXZpbA==\007", "\\x1B]52;c;ZXZpbA==\\x07");
  assert_sanitized ("\033P+q\033\\", "\\x1BP+q\\x1B\\");
  assert_sanitized ("a\xc2\x9b" "31mred", "a\\u009B31mred");
  assert_sanitized ("line\xc2\x85next", "line\\u0085next");
  /* Trojan Source: a right-to-left override reorders what is shown. */
  assert_sanitized ("disk\xe2\x80\xae" "gpj.exe", "disk\\u202Egpj.exe");
  assert_sanitized ("\xe2\x81\xa6x\xe2\x81\xa9", "\\u2066x\\u2069");
}
END_TEST

START_TEST (test_not_utf8)
{
  /* Latin-1 "café", a lone continuation byte, a cut sequence, an overlong
   * '/', a UTF-16 surrogate encoded in UTF-8. */
  assert_sanitized ("/tmp/caf\xe9.img", "/tmp/caf\\xE9.img");
  assert_sanitized ("\x80", "\\x80");
  assert_sanitized ("ab\xe2\x82", "ab\\xE2\\x82");
  assert_sanitized ("\xc0\xaf", "\\xC0\\xAF");
  assert_sanitized ("\xed\xa0\x80", "\\xED\\xA0\\x80");
}
END_TEST

/* Every byte value, alone and in company: the result is always inert. */
START_TEST (test_every_byte_is_inert)
{
  for (guint b = 1; b < 256; b++)
    {
      char in[8] = { 'x', (char) b, 'y', (char) b, (char) b, '\0' };
      g_autofree char *out = ds_text_sanitize (in);

      assert_inert (out);
    }

  for (guint32 seed = 1; seed < 2000; seed++)
    {
      GRand *rand = g_rand_new_with_seed (seed);
      char in[33];
      g_autofree char *out = NULL;

      for (guint i = 0; i < 32; i++)
        in[i] = (char) g_rand_int_range (rand, 1, 256);
      in[32] = '\0';
      out = ds_text_sanitize (in);
      assert_inert (out);
      g_rand_free (rand);
    }
}
END_TEST

START_TEST (test_short)
{
  g_autofree char *a = ds_text_sanitize_short ("abcdefghij", 5);
  g_autofree char *b = ds_text_sanitize_short ("abcde", 5);
  g_autofree char *c = ds_text_sanitize_short ("\033\033\033\033\033\033", 3);

  ck_assert_str_eq (a, "abcd…");
  ck_assert_str_eq (b, "abcde");
  ck_assert_str_eq (c, "\\x1B\\x1B…");
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("text");
  TCase *tc = tcase_create ("sanitize");

  tcase_add_test (tc, test_plain_text_unchanged);
  tcase_add_test (tc, test_escape_sequences);
  tcase_add_test (tc, test_not_utf8);
  tcase_add_test (tc, test_every_byte_is_inert);
  tcase_add_test (tc, test_short);
  /* 2000 random strings and every byte: seconds under ASan. */
  tcase_set_timeout (tc, 60);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
