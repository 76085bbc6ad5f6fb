/* stub */
#include "config.h"
#include "ds-cli.h"
int ds_cli_run (int argc, char **argv) { return DS_CLI_FAILED; }
