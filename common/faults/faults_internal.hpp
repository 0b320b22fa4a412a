// What faults.cpp shares with faults_io_uring.cpp (built only with liburing).
#pragma once

#include "looplab/testing/faults.hpp"

namespace looplab::testing::faults::detail {

/// The errno this call of `call` fails with before doing anything (counted
/// as injected), or 0: let it through.
int error_before(Call call);

}  // namespace looplab::testing::faults::detail
