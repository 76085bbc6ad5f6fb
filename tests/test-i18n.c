/* test-i18n.c: the core speaks the user's language (no root, no device)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The app and the CLI bind the "diskscope" domain; the core's messages
 * (errors, write refusals) must then come out translated, as the GUI shows
 * them.  Each case binds the domain to the catalogs built in the build tree
 * (po/<lang>/LC_MESSAGES/diskscope.mo), picks a language with LANGUAGE
 * under C.UTF-8 (glibc honours LANGUAGE there, so no generated locale is
 * needed), makes the core produce a real message and checks the words of
 * the translation.  English under plain C checks the text did not change.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <locale.h>
#include <string.h>
#include <unistd.h>

#include "ds-error.h"
#include "ds-safety.h"
#include "ds-test-util.h"
#include "ds-units.h"

#define MISSING "/dev/diskscope-no-such-disk"

/* The process in @language (NULL: untranslated C), with the build tree's
 * catalogs, as the app sets itself up in main(). */
static void
use_language (const char *language)
{
  g_setenv ("LC_ALL", language != NULL ? "C.UTF-8" : "C", TRUE);
  if (language != NULL)
    g_setenv ("LANGUAGE", language, TRUE);
  else
    g_unsetenv ("LANGUAGE");
  ck_assert_ptr_nonnull (setlocale (LC_ALL, ""));
  ck_assert_ptr_nonnull (bindtextdomain (GETTEXT_PACKAGE, DS_BUILD_LOCALEDIR));
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}

/* The write gate's verdict on @path for @intent (no confirmation). */
static GError *
decide (const char     *path,
        DsSafetyIntent  intent)
{
  DsTargetFacts facts;
  GError *error = NULL;

  ds_safety_probe (&facts, path, NULL, TRUE);
  ck_assert (!ds_safety_decide (&facts, intent, &error));
  ds_target_facts_clear (&facts);
  ck_assert_ptr_nonnull (error);
  return error;
}

#define assert_has(text, word) \
  ck_assert_msg (strstr ((text), (word)) != NULL, "“%s” is not in “%s”", (word), (text))

/* A device that does not exist, in Russian. */
START_TEST (test_missing_device_ru)
{
  g_autoptr (GError) error = NULL;

  use_language ("ru");
  error = decide (MISSING, DS_SAFETY_WRITE);
  ck_assert_int_eq (error->code, DS_ERROR_NOT_FOUND);
  ck_assert_str_eq (error->message, MISSING " не существует; --create РАЗМЕР создаст там "
                    "собственный тестовый файл Diskscope");
}
END_TEST

/* The same in the C locale: English, word for word as before. */
START_TEST (test_missing_device_c)
{
  g_autoptr (GError) error = NULL;

  use_language (NULL);
  error = decide (MISSING, DS_SAFETY_READ);
  ck_assert_str_eq (error->message, MISSING " does not exist");
}
END_TEST

/* A write to an unconfirmed file: the refusal, assembled from translated
 * phrases, in Russian, Polish and Chinese. */
START_TEST (test_confirm_refusal)
{
  static const struct {
    const char *language;
    const char *words[3];
  } cases[] = {
    { "ru", { "Запись в файл ", "отклонена: тест записи уничтожит данные", "Подтвердите, назвав файл" } },
    { "pl", { "Odmowa zapisu do pliku ", "test zapisu niszczy", "Potwierdź, podając plik" } },
    { "zh_CN", { "拒绝写入 文件 ", "写入测试会销毁其上的数据", "请指明该文件来确认" } },
  };
  g_autofree char *path = ds_test_make_file ("confirm.bin", 1 << 20, 1);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;

      use_language (cases[i].language);
      error = decide (path, DS_SAFETY_WRITE);
      ck_assert_int_eq (error->code, DS_ERROR_REFUSED);
      for (guint w = 0; w < G_N_ELEMENTS (cases[i].words); w++)
        assert_has (error->message, cases[i].words[w]);
      assert_has (error->message, "--destroy-data=");
      assert_has (error->message, path);
    }
}
END_TEST

/* Permission denied says how to fix it in Russian; no space in Polish. */
START_TEST (test_errno_messages)
{
  g_autoptr (GError) denied = NULL;
  g_autoptr (GError) full = NULL;

  use_language ("ru");
  ds_set_error_from_errno (&denied, EACCES, "/dev/sdz");
  ck_assert_int_eq (denied->code, DS_ERROR_PERMISSION);
  assert_has (denied->message, "/dev/sdz: ");
  assert_has (denied->message, geteuid () == 0 ? "даже от имени root" : "Запустите Diskscope от имени root");

  use_language ("pl");
  ds_set_error_from_errno (&full, ENOSPC, "/mnt/x");
  ck_assert_int_eq (full->code, DS_ERROR_NO_SPACE);
  assert_has (full->message, "w systemie plików zabrakło miejsca");
}
END_TEST

/* A message with a 64-bit offset (PRId64, a system-dependent string in the
 * catalog) and the cancelled run are found at run time. */
START_TEST (test_io_error_format)
{
  g_autofree char *ru = NULL;
  g_autofree char *zh = NULL;

  use_language ("ru");
  ru = g_strdup_printf (_("%s: %s error at offset %" PRId64 " (%.3f GB): %s"),
                        "/dev/sdz", _("read"), (int64_t) 4096, 4096 / 1e9, "EIO");
  ck_assert_str_eq (ru, "/dev/sdz: ошибка чтения по смещению 4096 (0.000 ГБ): EIO");
  ck_assert_str_eq (_("the run was stopped by the user"), "запуск остановлен пользователем");

  use_language ("zh_CN");
  zh = g_strdup_printf (_("%s: %s error at offset %" PRId64 " (%.3f GB): %s"),
                        "/dev/sdz", _("write"), (int64_t) 8192, 8192 / 1e9, "EIO");
  ck_assert_str_eq (zh, "/dev/sdz：在偏移 8192（0.000 GB）处写入出错：EIO");
}
END_TEST

/* A value's unit on the screen as the axis beside it says it (issue 25:
 * "МБ/с" and "мс" on the axes, "MB/s" and "ms" in the values); the text
 * report's stays English, like HD Tune's. */
START_TEST (test_units)
{
  static const struct { const char *language; const char *rate; const char *ms; } cases[] = {
    { "ru", "123.4 МБ/с", "5.400 мс" },
    { "zh_CN", NULL, "5.400 毫秒" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *rate = NULL;
      g_autofree char *ms = NULL;
      g_autofree char *report_rate = NULL;
      g_autofree char *report_ms = NULL;
      g_autofree char *axis = NULL;

      use_language (cases[i].language);
      rate = ds_format_rate_l10n (123.4e6, DS_UNITS_MB);
      ms = ds_format_ms_l10n (5.4e-3);
      /* The very msgids the graph's axes translate. */
      axis = g_strdup_printf ("%.3f %s", 5.4, dgettext (GETTEXT_PACKAGE, "ms"));
      ck_assert_str_eq (ms, axis);
      ck_assert_str_ne (ms, "5.400 ms");
      if (cases[i].rate != NULL)
        ck_assert_str_eq (rate, cases[i].rate);
      ck_assert_str_eq (ms, cases[i].ms);
      report_rate = ds_format_rate (123.4e6, DS_UNITS_MB);
      report_ms = ds_format_ms (5.4e-3);
      ck_assert_str_eq (report_rate, "123.4 MB/s");
      ck_assert_str_eq (report_ms, "5.400 ms");
    }
}
END_TEST

int
main (void)
{
  Suite *suite = suite_create ("i18n");
  TCase *tc = tcase_create ("i18n");

  ds_test_init ("i18n");
  tcase_add_test (tc, test_missing_device_ru);
  tcase_add_test (tc, test_missing_device_c);
  tcase_add_test (tc, test_confirm_refusal);
  tcase_add_test (tc, test_errno_messages);
  tcase_add_test (tc, test_io_error_format);
  tcase_add_test (tc, test_units);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
