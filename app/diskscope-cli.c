/* diskscope-cli.c: the headless command line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-cli.h"

int
main (int argc, char **argv)
{
  return ds_cli_main (argc, argv);
}
