# The feature table: which test, scenario and benchmark groups apply to which stage.
#
# A group named NAME owns the folders tests/NAME/, tests/scenarios/NAME/,
# bench/NAME/, comparisons/scenarios/NAME/ and comparisons/asyncio/NAME/. It is
# compiled and run against stage SINCE and every stage after it, so a later
# chapter can never silently break an earlier chapter's contract. Where a
# contract deliberately changes in a later stage, the test reads LOOPLAB_STAGE.
#
# Add a line here when a chapter introduces a feature; tools/stage export reads
# this file too.

looplab_feature(callback_queue SINCE 01)
looplab_feature(timers SINCE 02)
looplab_feature(io SINCE 03)
looplab_feature(differential SINCE 02)
looplab_feature(pollers SINCE 04)
looplab_feature(futures SINCE 05)
looplab_feature(tasks SINCE 06)
