/* fuzz-driver.c: a short run of a fuzz target without libFuzzer, for the
 * test suite
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Linked with one tests/fuzz/fuzz-*.c target (its LLVMFuzzerTestOneInput)
 * by tests/meson.build, built by the suite's compiler (gcc; under
 * tools/run-tests --sanitize with ASan and UBSan):
 *
 *   fuzz-short-NAME [--seconds S] [--runs N] [--seed X] SEEDS...
 *
 * runs every seed file (folders: their files; *.md skipped), then mutates
 * them for S seconds (default 5) or N inputs: bit flips, interesting bytes,
 * cuts, copies, JSON tokens and splices of two seeds, from a fixed seed so
 * a failure comes again.  A target aborts on a finding (a crash, a wrong
 * outcome); the input that did it is written to fuzz-NAME-crash.bin in the
 * current folder first (on SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL), and
 * the driver exits 1 when no signal got there first.  It is no coverage-
 * guided search: tests/bench/fuzz-loader runs libFuzzer for that.
 */
#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

#define MAX_INPUT_BYTES (1024 * 1024)

/* What a crash writes out: the input being run. */
static const uint8_t *current;
static size_t current_size;
static char crash_path[4096];

static void
on_crash (int sig)
{
  int fd = open (crash_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

  if (fd >= 0)
    {
      size_t done = 0;

      while (current != NULL && done < current_size)
        {
          ssize_t n = write (fd, current + done, current_size - done);

          if (n <= 0)
            break;
          done += (size_t) n;
        }
      close (fd);
    }
  signal (sig, SIG_DFL);
  raise (sig);
}

static guint64 rng_state;

static guint64
rng (void)
{
  /* xorshift64*: enough for picking mutations. */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * UINT64_C (2685821657736338717);
}

static gsize
pick (gsize n)
{
  return n > 0 ? (gsize) (rng () % n) : 0;
}

static void
add_seeds (GPtrArray  *seeds,
           const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
      g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        if (!g_str_has_suffix (name, ".md"))
          g_ptr_array_add (names, g_build_filename (path, name, NULL));
      g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
      for (guint i = 0; i < names->len; i++)
        add_seeds (seeds, names->pdata[i]);
      return;
    }

  {
    gchar *data = NULL;
    gsize length = 0;

    if (!g_file_get_contents (path, &data, &length, NULL))
      {
        fprintf (stderr, "fuzz-driver: cannot read the seed %s\n", path);
        exit (2);
      }
    g_ptr_array_add (seeds, g_bytes_new_take (data, length));
  }
}

static void
run (const guint8 *data,
     gsize         size)
{
  /* A copy of its own, so ASan sees a read past the end. */
  g_autofree guint8 *copy = g_memdup2 (data, size);

  current = copy;
  current_size = size;
  LLVMFuzzerTestOneInput (copy, size);
  current = NULL;
}

static void
insert_bytes (GByteArray   *array,
              gsize         at,
              const guint8 *data,
              gsize         n)
{
  gsize len = array->len;

  g_byte_array_set_size (array, (guint) (len + n));
  memmove (array->data + at + n, array->data + at, len - at);
  memcpy (array->data + at, data, n);
}

static const char *const tokens[] = {
  "\"", "{", "}", "[", "]", ",", ":", "null", "true", "false", "-1", "0", "1e309", "-0",
  "1125899906842624", "18446744073709551615", "\\u0000", "\\n", "\"\":", "[[[[", "]]]]",
  ", 0, 0, 0\n", "\n", "4096", "\x01", "\xff", "NaN", "1e-320",
};

/* @from, changed a few times, into @out. */
static void
mutate (GByteArray *out,
        GBytes     *from,
        GPtrArray  *seeds)
{
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (from, &size);
  guint n = 1 + (guint) pick (4);

  g_byte_array_set_size (out, 0);
  g_byte_array_append (out, data, (guint) size);
  for (guint m = 0; m < n; m++)
    {
      gsize len = out->len;
      gsize at = pick (len + 1);

      switch (pick (7))
        {
        case 0:     /* a bit */
          if (len > 0)
            out->data[pick (len)] ^= (guint8) (1u << pick (8));
          break;
        case 1:     /* an interesting byte */
          if (len > 0)
            {
              static const guint8 bytes[] = { 0, 0xff, 0x7f, 0x80, '"', '\\', '{', '}', '[', ']',
                                              ',', ':', '\n', '-', '9', '.', 'e', 0x01, 0x1b };

              out->data[pick (len)] = bytes[pick (G_N_ELEMENTS (bytes))];
            }
          break;
        case 2:     /* cut a range */
          if (len > 0)
            {
              gsize from_at = pick (len);
              gsize count = 1 + pick (64);   /* (MIN evaluates twice) */

              g_byte_array_remove_range (out, (guint) from_at, (guint) MIN (count, len - from_at));
            }
          break;
        case 3:     /* copy a range elsewhere */
          if (len > 0 && len < MAX_INPUT_BYTES)
            {
              gsize from_at = pick (len);
              gsize want = 1 + pick (256);
              gsize count = MIN (want, len - from_at);
              g_autofree guint8 *piece = g_memdup2 (out->data + from_at, count);

              insert_bytes (out, pick (out->len + 1), piece, count);
            }
          break;
        case 4:     /* a token */
          {
            const char *t = tokens[pick (G_N_ELEMENTS (tokens))];

            if (len < MAX_INPUT_BYTES)
              insert_bytes (out, at, (const guint8 *) t, strlen (t));
          }
          break;
        case 5:     /* a digit run made long or huge */
          if (len > 0)
            {
              gsize i = pick (len);

              while (i < len && !g_ascii_isdigit (out->data[i]))
                i++;
              if (i < len && len < MAX_INPUT_BYTES)
                insert_bytes (out, i, (const guint8 *) "99999999999", 11);
            }
          break;
        default:    /* splice: this one's head, another's tail */
          {
            GBytes *other = seeds->pdata[pick (seeds->len)];
            gsize osize = 0;
            const guint8 *odata = g_bytes_get_data (other, &osize);
            gsize cut = pick (osize + 1);

            g_byte_array_set_size (out, (guint) at);
            if (at + (osize - cut) < MAX_INPUT_BYTES)
              g_byte_array_append (out, odata + cut, (guint) (osize - cut));
          }
          break;
        }
    }
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GPtrArray) seeds = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr (GByteArray) input = g_byte_array_new ();
  g_autofree char *name = g_path_get_basename (argv[0]);
  double seconds = 5;
  guint64 runs = 0;
  guint64 max_runs = G_MAXUINT64;
  guint64 seed = 0x5eed;
  gint64 start;
  int i;

  for (i = 1; i < argc && g_str_has_prefix (argv[i], "--"); i += 2)
    {
      if (i + 1 >= argc)
        break;
      if (strcmp (argv[i], "--seconds") == 0)
        seconds = g_ascii_strtod (argv[i + 1], NULL);
      else if (strcmp (argv[i], "--runs") == 0)
        max_runs = g_ascii_strtoull (argv[i + 1], NULL, 10);
      else if (strcmp (argv[i], "--seed") == 0)
        seed = g_ascii_strtoull (argv[i + 1], NULL, 0);
    }
  for (; i < argc; i++)
    add_seeds (seeds, argv[i]);
  if (seeds->len == 0)
    {
      fprintf (stderr, "usage: %s [--seconds S] [--runs N] [--seed X] SEEDS...\n", name);
      return 2;
    }

  g_snprintf (crash_path, sizeof crash_path, "%s-crash.bin", name);
  signal (SIGABRT, on_crash);
  signal (SIGSEGV, on_crash);
  signal (SIGBUS, on_crash);
  signal (SIGFPE, on_crash);
  signal (SIGILL, on_crash);
  rng_state = seed ? seed : 1;

  start = g_get_monotonic_time ();
  for (guint s = 0; s < seeds->len; s++, runs++)
    {
      gsize size = 0;
      const guint8 *data = g_bytes_get_data (seeds->pdata[s], &size);

      run (data, size);
    }
  while (runs < max_runs && (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC < seconds)
    {
      mutate (input, seeds->pdata[pick (seeds->len)], seeds);
      run (input->data, input->len);
      runs++;
    }

  printf ("%s: %" G_GUINT64_FORMAT " inputs (%u seeds, then mutations from seed 0x%" G_GINT64_MODIFIER
          "x) in %.1f s, nothing found\n", name, runs, seeds->len, seed,
          (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC);
  return 0;
}
