// The exercises' commands: `vklab exercise --check FILE [--exercise NAME]` checks a kernel
// headless and says its verdict (exit 0: it passes; 5: it does not compile, is wrong or was
// stopped), and `vklab --list-exercises` lists the shipped ones.
#pragma once
#include "app/core/cli.h"

int run_exercise_check(const Options& o);
int list_exercises();
