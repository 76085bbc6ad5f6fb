/* ds-asan-options.c: AddressSanitizer defaults for the GTK programs
 * (the app and the display tests), linked only into sanitizer builds
 *
 * GTK crosses GLib's first block of quarks (2048) as soon as a file
 * chooser opens (or enough pages are built), and GLib drops that block
 * by design (its lookups are lockless); gdk-pixbuf's MIME sniffing and
 * libcloudproviders cache for the life of the process.  tests/lsan.supp
 * names them by their callers, which the frame-pointer unwinder cannot
 * see through GLib's frames: unwind the slow, exact way, over the few
 * frames the suppressions need (12: GIO's module objects are made 9 deep
 * below g_io_module_new, which names them).  ASAN_OPTIONS still overrides
 * each.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

__attribute__ ((visibility ("default"), used)) const char *__asan_default_options (void);

const char *
__asan_default_options (void)
{
  return "fast_unwind_on_malloc=0:malloc_context_size=12";
}
