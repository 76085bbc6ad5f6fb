/* ds-cli-device.c (stub) */
#include "config.h"
#include "ds-cli.h"
int ds_cli_list (int argc, char **argv) { return DS_CLI_FAILED; }
int ds_cli_info (int argc, char **argv) { return DS_CLI_FAILED; }
