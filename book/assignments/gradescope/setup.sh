#!/usr/bin/env bash
# Gradescope's setup.sh for a looplab assignment: runs once, as root, when
# Gradescope builds the autograder's image. Choose the Debian 12 base image
# (the grader needs Python 3.11 or newer). It installs what the grader needs
# to build a submission: a C++20 compiler with ASan, CMake, Ninja,
# GoogleTest and liburing.
set -euo pipefail
source_dir="${AUTOGRADER_ROOT:-/autograder}/source"
apt-get update
"$source_dir/starter/tools/install-deps" grade
