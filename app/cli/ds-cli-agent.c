/* ds-cli-agent.c: a polkit password prompt in the terminal
 *
 * In a desktop session polkit's agent (GNOME Shell, KDE...) asks for the
 * password when udisks2 is asked to open a device.  Over ssh or on a text
 * console there is none, and polkit would just refuse.  Like systemctl, the
 * CLI starts pkttyagent for itself, in its terminal, only for the call that
 * may need it.  It is registered for this process alone, without
 * --fallback (polkit 122 never asks a fallback agent registered for a
 * process): in a desktop's terminal too, the password is asked where the
 * command was typed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ds-cli-agent.h"
#include "ds-udisks.h"

/* How long the agent may take to register before the call goes ahead
 * without it (polkit then refuses, and the message says so). */
#define AGENT_REGISTER_MS 5000

static GPid agent_pid;

/* Runs pkttyagent for this process and waits until it is registered: it
 * closes the fd given by --notify-fd then (or exits). */
static void
agent_begin (gpointer user_data)
{
  g_autofree char *program = g_find_program_in_path ("pkttyagent");
  g_autofree char *process = g_strdup_printf ("%d", (int) getpid ());
  int notify[2];
  const int target_fds[] = { 3 };
  const char *argv[] = { NULL, "--notify-fd", "3", "--process", process, NULL };
  struct pollfd pfd;
  char byte;

  if (program == NULL || agent_pid != 0 ||
      !isatty (STDIN_FILENO) || !isatty (STDERR_FILENO) ||
      pipe2 (notify, O_CLOEXEC) != 0)
    return;

  argv[0] = program;
  if (!g_spawn_async_with_pipes_and_fds (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD |
                                         G_SPAWN_CHILD_INHERITS_STDIN,
                                         NULL, NULL, -1, -1, -1, &notify[1], target_fds, 1,
                                         &agent_pid, NULL, NULL, NULL, NULL))
    {
      agent_pid = 0;
      close (notify[0]);
      close (notify[1]);
      return;
    }
  close (notify[1]);

  /* EOF: registered (or gone, which the call's answer will show). */
  pfd.fd = notify[0];
  pfd.events = POLLIN;
  while (poll (&pfd, 1, AGENT_REGISTER_MS) < 0 && errno == EINTR)
    ;
  while (read (notify[0], &byte, 1) < 0 && errno == EINTR)
    ;
  close (notify[0]);
}

static void
agent_end (gpointer user_data)
{
  if (agent_pid == 0)
    return;

  kill (agent_pid, SIGTERM);
  while (waitpid (agent_pid, NULL, 0) < 0 && errno == EINTR)
    ;
  g_spawn_close_pid (agent_pid);
  agent_pid = 0;
}

void
ds_cli_agent_install (DsTargetAccess *access)
{
  access->agent_begin = agent_begin;
  access->agent_end = agent_end;
  access->agent_data = NULL;
}
