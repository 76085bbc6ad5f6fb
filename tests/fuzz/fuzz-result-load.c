/* fuzz-result-load.c: libFuzzer target for the result loader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ds_result_load_data() must turn any bytes into either a result or a
 * DS_ERROR_CORRUPT error, never a crash.  What it accepts must also hold
 * together: it renders as a text report with nothing a terminal acts on,
 * saves as JSON, that JSON loads again and saves as the same text.  Seeds:
 * tests/fuzz/corpus/ (and the dictionary tests/fuzz/result.dict); run it
 * with tests/bench/fuzz-loader.
 *
 * An input whose first byte is 1 to 4 is not JSON but a recipe that takes
 * the rest through what `diskscope-cli report FILE` meets:
 *   \x01 BYTES          BYTES as a regular file, through ds_result_load()
 *   \x02 K              a file that is not regular (K picks: a FIFO with no
 *                       writer, /dev/zero, /dev/urandom, a folder, a symlink
 *                       to /dev/zero, a socket, /dev/null): must be refused
 *                       at once (a hang is a libFuzzer timeout)
 *   \x03 S1 S2 BYTES    a sparse file of DS_JSON_MAX_FILE_BYTES + S1*256+S2
 *                       bytes starting with BYTES: refused before reading
 *   \x04 N1 N2 N3 HEAD \x01 ITEM \x01 TAIL
 *                       HEAD, then ITEM N times (N1..N3, at most 200 000
 *                       and 16 MiB in all) joined by ',', then TAIL: huge
 *                       lists (points, access dots) that must be refused by
 *                       their cap, fast and small
 */
#include "config.h"

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "ds-error.h"
#include "ds-limits.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-result.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

/* The most a \x04 recipe builds. */
#define EXPAND_MAX_BYTES (16 * 1024 * 1024)

static char *scratch;

static void
remove_scratch (void)
{
  static const char *const names[] = {
    "input.json", "fifo", "zero-link", "socket", "sparse.json",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (scratch, names[i], NULL);
      g_unlink (path);
    }
  g_rmdir (scratch);
}

/* A folder of its own, with the non-regular files made once. */
static const char *
scratch_path (const char *name)
{
  static char path[4096];

  if (scratch == NULL)
    {
      g_autofree char *fifo = NULL;
      g_autofree char *link = NULL;
      g_autofree char *sock = NULL;
      struct sockaddr_un addr = { .sun_family = AF_UNIX };
      int fd;

      scratch = g_dir_make_tmp ("ds-fuzz-XXXXXX", NULL);
      if (scratch == NULL)
        abort ();
      atexit (remove_scratch);
      fifo = g_build_filename (scratch, "fifo", NULL);
      link = g_build_filename (scratch, "zero-link", NULL);
      sock = g_build_filename (scratch, "socket", NULL);
      if (mkfifo (fifo, 0600) != 0 || symlink ("/dev/zero", link) != 0)
        abort ();
      fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
      g_strlcpy (addr.sun_path, sock, sizeof addr.sun_path);
      if (fd < 0 || bind (fd, (struct sockaddr *) &addr, sizeof addr) != 0)
        abort ();
      /* The socket stays bound (and open) for the whole run. */
    }

  g_snprintf (path, sizeof path, "%s/%s", scratch, name);
  return path;
}

/* Nothing but the report's newlines below 0x20, no DEL, no C1 control. */
static void
check_inert (const char *text)
{
  if (!g_utf8_validate (text, -1, NULL))
    abort ();
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if ((c < 0x20 && c != '\n') || c == 0x7f || (c >= 0x80 && c <= 0x9f))
        {
          fprintf (stderr, "the report prints U+%04X\n", c);
          abort ();
        }
    }
}

/* Exactly one of a result or an error, and the error is the documented
 * one; an accepted result renders and round-trips to the same text. */
static void
check_outcome (DsResult *result,
               GError   *error)
{
  if ((result == NULL) == (error == NULL))
    abort ();
  if (error != NULL)
    {
      if (error->domain != DS_ERROR || error->message[0] == '\0' ||
          (error->code != DS_ERROR_CORRUPT && error->code != DS_ERROR_NOT_FOUND &&
           error->code != DS_ERROR_PERMISSION))
        {
          fprintf (stderr, "unexpected error %d: %s\n", error->code, error->message);
          abort ();
        }
      check_inert (error->message);
      return;
    }

  {
    g_autofree char *report = ds_report_text (result, DS_UNITS_MB);
    g_autofree char *text = NULL;
    g_autofree char *text_again = NULL;
    g_autoptr (GError) again_error = NULL;
    g_autoptr (DsResult) again = NULL;
    gsize length = 0;

    check_inert (report);
    text = ds_result_to_data (result, &length);
    if (text == NULL || !g_utf8_validate (text, (gssize) length, NULL))
      abort ();
    again = ds_result_load_data (text, (gssize) length, &again_error);
    if (again == NULL)
      {
        fprintf (stderr, "a loaded result does not load again after saving: %s\n",
                 again_error->message);
        abort ();
      }
    text_again = ds_result_to_data (again, NULL);
    if (strcmp (text, text_again) != 0)
      {
        fprintf (stderr, "save -> load -> save changed the text\n");
        abort ();
      }
  }
}

static void
load_path (const char *path,
           gboolean    must_fail)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) result = ds_result_load (path, &error);

  if (must_fail && result != NULL)
    abort ();
  check_outcome (result, error);
}

static void
write_file (const char    *path,
            const uint8_t *data,
            size_t         size,
            off_t          total)
{
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

  if (fd < 0 || (size > 0 && write (fd, data, size) != (ssize_t) size) ||
      (total > 0 && ftruncate (fd, total) != 0))
    abort ();
  close (fd);
}

/* \x04: HEAD, ITEM x N, TAIL. */
static void
expand_lists (const uint8_t *data,
              size_t         size)
{
  const uint8_t *head;
  const uint8_t *item;
  const uint8_t *tail;
  const uint8_t *end = data + size;
  gsize n;
  GString *text;

  if (size < 3)
    return;
  n = ((gsize) data[0] << 16 | (gsize) data[1] << 8 | data[2]);
  head = data + 3;
  item = memchr (head, 1, end - head);
  if (item == NULL)
    return;
  item++;
  tail = memchr (item, 1, end - item);
  if (tail == NULL)
    return;
  tail++;

  /* Enough to pass every list cap (100 000 entries) with small entries,
   * and no more: past DS_JSON_MAX_FILE_BYTES is the size check (the \x03
   * recipe), and a 64 MB text per input would be all the fuzzer does. */
  n = MIN (n, (gsize) 2 * DS_JSON_MAX_POINTS);
  text = g_string_sized_new (4096);
  g_string_append_len (text, (const char *) head, item - 1 - head);
  for (gsize i = 0; i < n && text->len < EXPAND_MAX_BYTES; i++)
    {
      if (i > 0)
        g_string_append_c (text, ',');
      g_string_append_len (text, (const char *) item, tail - 1 - item);
    }
  g_string_append_len (text, (const char *) tail, end - tail);

  {
    g_autoptr (GError) error = NULL;
    g_autoptr (DsResult) result = ds_result_load_data (text->str, (gssize) text->len, &error);

    check_outcome (result, error);
  }
  g_string_free (text, TRUE);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  if (size > 0 && data[0] >= 1 && data[0] <= 4)
    {
      switch (data[0])
        {
        case 1:
          write_file (scratch_path ("input.json"), data + 1, size - 1, 0);
          load_path (scratch_path ("input.json"), FALSE);
          break;

        case 2:
          {
            static const char *const fixed[] = {
              NULL, "/dev/zero", "/dev/urandom", NULL, NULL, NULL, "/dev/null",
            };
            static const char *const made[] = {
              "fifo", NULL, NULL, "", "zero-link", "socket", NULL,
            };
            guint k = size > 1 ? data[1] % G_N_ELEMENTS (fixed) : 0;
            const char *path = fixed[k] != NULL ? fixed[k] : scratch_path (made[k]);

            load_path (path, TRUE);
          }
          break;

        case 3:
          {
            off_t extra = size > 2 ? (off_t) data[1] << 8 | data[2] : 1;
            size_t n = size > 3 ? size - 3 : 0;

            write_file (scratch_path ("sparse.json"), data + 3, n,
                        (off_t) DS_JSON_MAX_FILE_BYTES + MAX (extra, 1));
            load_path (scratch_path ("sparse.json"), TRUE);
          }
          break;

        default:
          expand_lists (data + 1, size - 1);
          break;
        }
      return 0;
    }

  {
    g_autoptr (GError) error = NULL;
    g_autoptr (DsResult) result = ds_result_load_data ((const char *) data, (gssize) size, &error);

    check_outcome (result, error);
  }

  return 0;
}
