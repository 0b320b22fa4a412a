/* native_bench.h: the timing harness and JSON writer shared by the native
 * floor programs (epoll_pingpong.c, libuv_pingpong.c). Header-only, C11.
 *
 * A program describes its event machinery with struct nb_program (set up a
 * ping-pong with N idle descriptors, run one batch of round trips, tear it
 * down) and calls nb_main(). nb_main gives every program the same command line
 *
 *     PROGRAM [--out FILE] [--quick] [--repetitions N] [--benchmark NAME] [--min-time S]
 *
 * runs the workloads reader_pingpong (0 idle descriptors) and
 * reader_pingpong_idle1000 (1,000 idle descriptors = 500 socket pairs), or
 * the program's own table (libuv_threadsafe.c: stage 09's workloads), and
 * writes Google Benchmark's JSON shape, as comparisons/asyncio/gbench.py does,
 * so comparisons/report.py and Google Benchmark's tools/compare.py read it like
 * a bench_sNN binary's output.
 *
 * Timing, as Google Benchmark times a KeepRunningBatch(10'000) benchmark:
 * one untimed warm-up batch, then per repetition whole batches of 10,000 round
 * trips until the repetition has run at least --min-time seconds (0.5 s, Google
 * Benchmark's default min time); ns per round trip = the repetition's wall
 * (CLOCK_MONOTONIC) or CPU (CLOCK_PROCESS_CPUTIME_ID) time / its round trips.
 * --quick: one batch of 2,000 round trips, one repetition. */
#ifndef LOOPLAB_NATIVE_BENCH_H
#define LOOPLAB_NATIVE_BENCH_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { NB_BATCH = 10000, NB_QUICK_BATCH = 2000, NB_DEFAULT_REPETITIONS = 5 };

struct nb_workload {
  const char* name;
  int idle;   /* the workload's parameter: idle descriptors for the ping-pongs */
  long batch; /* operations per batch; 0: NB_BATCH */
};

struct nb_program {
  const char* implementation; /* context "implementation", e.g. "epoll (C)" */
  const char* selector;       /* context "selector", e.g. "epoll" */
  const char* extra_key;      /* one more context field (e.g. "libuv_version"), or NULL */
  const char* extra_value;
  /* A ready ping-pong with `idle` idle descriptors, or NULL (after a message on stderr). */
  void* (*setup)(int idle);
  /* `round_trips` round trips; 0, or -1 after a message on stderr. */
  int (*run_batch)(void* state, long round_trips);
  void (*teardown)(void* state);
  /* The workloads it runs; NULL: the two ping-pongs below. */
  const struct nb_workload* workloads;
  int workload_count;
};

static const struct nb_workload nb_workloads[] = {
    {"reader_pingpong", 0, 0},
    {"reader_pingpong_idle1000", 1000, 0},
};
enum { NB_WORKLOADS = sizeof nb_workloads / sizeof nb_workloads[0] };

struct nb_run {
  long round_trips;
  double wall_ns, cpu_ns;
};

/* ---------------------------------------------------------------- helpers */

static double nb_clock_ns(clockid_t clock) {
  struct timespec now;
  clock_gettime(clock, &now);
  return (double)now.tv_sec * 1e9 + (double)now.tv_nsec;
}

/* A connected, non-blocking AF_UNIX stream pair, as io_bench.cpp makes. */
static inline int nb_socket_pair(int ends[2]) {
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, ends) != 0) {
    perror("socketpair");
    return -1;
  }
  return 0;
}

/* 1,000 descriptors come close to the default limit of 1,024: raise the soft
 * limit as io_bench.cpp does. */
static void nb_raise_nofile(void) {
  struct rlimit limit;
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
  if (limit.rlim_cur < 4096 && limit.rlim_max >= 4096) {
    limit.rlim_cur = 4096;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
}

static int nb_compare_doubles(const void* left, const void* right) {
  double a = *(const double*)left, b = *(const double*)right;
  return (a > b) - (a < b);
}

static double nb_mean(const double* values, int count) {
  double sum = 0;
  for (int i = 0; i < count; ++i) sum += values[i];
  return sum / count;
}

static double nb_median(const double* values, int count) {
  double* sorted = malloc(sizeof *sorted * (size_t)count);
  if (sorted == NULL) return values[0];
  memcpy(sorted, values, sizeof *sorted * (size_t)count);
  qsort(sorted, (size_t)count, sizeof *sorted, nb_compare_doubles);
  double median = count % 2 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2;
  free(sorted);
  return median;
}

/* The sample standard deviation, as Python's statistics.stdev and Google Benchmark. */
static double nb_stddev(const double* values, int count) {
  double mean = nb_mean(values, count), sum = 0;
  for (int i = 0; i < count; ++i) sum += (values[i] - mean) * (values[i] - mean);
  double variance = sum / (count - 1);
  /* sqrt without libm: Newton's method, plenty for a spread */
  double root = variance > 1 ? variance : 1;
  for (int i = 0; i < 100 && variance > 0; ++i) root = (root + variance / root) / 2;
  return variance > 0 ? root : 0;
}

static void nb_json_string(FILE* out, const char* text) {
  fputc('"', out);
  for (const unsigned char* p = (const unsigned char*)text; *p; ++p) {
    if (*p == '"' || *p == '\\') {
      fprintf(out, "\\%c", *p);
    } else if (*p < 0x20) {
      fprintf(out, "\\u%04x", *p);
    } else {
      fputc(*p, out);
    }
  }
  fputc('"', out);
}

static void nb_json_field(FILE* out, const char* key, const char* value, int last) {
  fprintf(out, "    ");
  nb_json_string(out, key);
  fprintf(out, ": ");
  nb_json_string(out, value);
  fprintf(out, last ? "\n" : ",\n");
}

/* ---------------------------------------------------------------- output */

static void nb_write_context(FILE* out, const struct nb_program* program) {
  char date[64] = "", host[256] = "", executable[4096] = "";
  time_t now = time(NULL);
  struct tm local;
  if (localtime_r(&now, &local) != NULL &&
      strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S%z", &local) > 0) {
    size_t length = strlen(date); /* +0000 -> +00:00, as ISO 8601 and Python write it */
    if (length > 2 && length + 1 < sizeof date) {
      memmove(date + length - 1, date + length - 2, 3);
      date[length - 2] = ':';
    }
  }
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
  executable[length > 0 ? length : 0] = '\0';
  double load[3] = {0, 0, 0};
  int have_load = getloadavg(load, 3) == 3;

  fprintf(out, "  \"context\": {\n");
  nb_json_field(out, "date", date, 0);
  nb_json_field(out, "host_name", host, 0);
  nb_json_field(out, "executable", executable, 0);
  nb_json_field(out, "implementation", program->implementation, 0);
  nb_json_field(out, "selector", program->selector, 0);
  if (program->extra_key != NULL) nb_json_field(out, program->extra_key, program->extra_value, 0);
  fprintf(out, "    \"num_cpus\": %ld,\n", sysconf(_SC_NPROCESSORS_ONLN));
  if (have_load) fprintf(out, "    \"load_avg\": [%g, %g, %g],\n", load[0], load[1], load[2]);
  nb_json_field(out, "library_build_type", "release", 1);
  fprintf(out, "  },\n");
}

static void nb_write_entry(FILE* out, const char* name, int family, int repetitions,
                           int repetition_index, const char* aggregate, long iterations,
                           double real_ns, double cpu_ns, int last) {
  fprintf(out, "    {\n      \"name\": ");
  if (aggregate != NULL) {
    char full[128];
    snprintf(full, sizeof full, "%s_%s", name, aggregate);
    nb_json_string(out, full);
  } else {
    nb_json_string(out, name);
  }
  fprintf(out, ",\n      \"family_index\": %d,\n      \"per_family_instance_index\": 0,\n", family);
  fprintf(out, "      \"run_name\": ");
  nb_json_string(out, name);
  fprintf(out, ",\n      \"run_type\": \"%s\",\n      \"repetitions\": %d,\n",
          aggregate ? "aggregate" : "iteration", repetitions);
  if (aggregate != NULL) {
    fprintf(out, "      \"threads\": 1,\n      \"aggregate_name\": \"%s\",\n", aggregate);
    fprintf(out, "      \"aggregate_unit\": \"time\",\n");
  } else {
    fprintf(out, "      \"repetition_index\": %d,\n      \"threads\": 1,\n", repetition_index);
  }
  fprintf(out, "      \"iterations\": %ld,\n", iterations);
  fprintf(out, "      \"real_time\": %.17g,\n      \"cpu_time\": %.17g,\n", real_ns, cpu_ns);
  fprintf(out, "      \"time_unit\": \"ns\"\n    }%s\n", last ? "" : ",");
}

/* One workload's repetitions, as Google Benchmark lists them: the iterations,
 * then mean, median and stddev when there is more than one. */
static void nb_write_workload(FILE* out, const char* name, int family, const struct nb_run* runs,
                              int repetitions, int last_workload) {
  double* real = malloc(sizeof *real * (size_t)repetitions * 2);
  if (real == NULL) return;
  double* cpu = real + repetitions;
  for (int i = 0; i < repetitions; ++i) {
    real[i] = runs[i].wall_ns / (double)runs[i].round_trips;
    cpu[i] = runs[i].cpu_ns / (double)runs[i].round_trips;
    int last = last_workload && repetitions == 1;
    nb_write_entry(out, name, family, repetitions, i, NULL, runs[i].round_trips, real[i], cpu[i],
                   last);
  }
  if (repetitions >= 2) {
    nb_write_entry(out, name, family, repetitions, 0, "mean", repetitions,
                   nb_mean(real, repetitions), nb_mean(cpu, repetitions), 0);
    nb_write_entry(out, name, family, repetitions, 0, "median", repetitions,
                   nb_median(real, repetitions), nb_median(cpu, repetitions), 0);
    nb_write_entry(out, name, family, repetitions, 0, "stddev", repetitions,
                   nb_stddev(real, repetitions), nb_stddev(cpu, repetitions), last_workload);
  }
  free(real);
}

/* ---------------------------------------------------------------- running */

/* One repetition: whole batches until min_time_ns has passed (quick: one batch). */
static int nb_repetition(const struct nb_program* program, void* state, long batch,
                         double min_time_ns, struct nb_run* run) {
  run->round_trips = 0;
  run->wall_ns = run->cpu_ns = 0;
  do {
    double wall_start = nb_clock_ns(CLOCK_MONOTONIC);
    double cpu_start = nb_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
    if (program->run_batch(state, batch) != 0) return -1;
    run->cpu_ns += nb_clock_ns(CLOCK_PROCESS_CPUTIME_ID) - cpu_start;
    run->wall_ns += nb_clock_ns(CLOCK_MONOTONIC) - wall_start;
    run->round_trips += batch;
  } while (run->wall_ns < min_time_ns);
  return 0;
}

static void nb_usage(FILE* out, const char* argv0) {
  fprintf(out,
          "usage: %s [--out FILE] [--quick] [--repetitions N] [--benchmark NAME] "
          "[--min-time SECONDS]\n"
          "  runs reader_pingpong and reader_pingpong_idle1000 (or only NAME) and writes\n"
          "  Google Benchmark JSON to FILE (default: stdout). --quick: one batch of %d round\n"
          "  trips, one repetition; otherwise batches of %d until each of N repetitions\n"
          "  (default %d) has run SECONDS (default 0.5).\n",
          argv0, NB_QUICK_BATCH, NB_BATCH, NB_DEFAULT_REPETITIONS);
}

static int nb_main(int argc, char** argv, const struct nb_program* program) {
  const char *out_path = NULL, *only = NULL;
  int quick = 0, repetitions = 0;
  double min_time_s = 0.5;
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    int has_value = i + 1 < argc;
    if (strcmp(arg, "--out") == 0 && has_value) {
      out_path = argv[++i];
    } else if (strcmp(arg, "--quick") == 0) {
      quick = 1;
    } else if (strcmp(arg, "--repetitions") == 0 && has_value) {
      repetitions = atoi(argv[++i]);
      if (repetitions < 1) {
        fprintf(stderr, "%s: --repetitions must be at least 1\n", argv[0]);
        return 2;
      }
    } else if (strcmp(arg, "--benchmark") == 0 && has_value) {
      only = argv[++i];
    } else if (strcmp(arg, "--min-time") == 0 && has_value) {
      min_time_s = atof(argv[++i]);
    } else if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      nb_usage(stdout, argv[0]);
      return 0;
    } else {
      nb_usage(stderr, argv[0]);
      return 2;
    }
  }
  if (repetitions == 0) repetitions = quick ? 1 : NB_DEFAULT_REPETITIONS;
  const struct nb_workload* workloads = program->workloads ? program->workloads : nb_workloads;
  int workload_count = program->workloads ? program->workload_count : NB_WORKLOADS;
  int selected[16], count = 0;
  for (int w = 0; w < workload_count && count < 16; ++w) {
    if (only == NULL || strcmp(only, workloads[w].name) == 0) selected[count++] = w;
  }
  if (count == 0) {
    fprintf(stderr, "%s: no benchmark named %s (there are:", argv[0], only);
    for (int w = 0; w < workload_count; ++w) fprintf(stderr, " %s", workloads[w].name);
    fprintf(stderr, ")\n");
    return 2;
  }
  double min_time_ns = quick ? 0 : min_time_s * 1e9;
  struct nb_run* runs = calloc((size_t)count * (size_t)repetitions, sizeof *runs);
  if (runs == NULL) return 1;

  nb_raise_nofile();
  for (int k = 0; k < count; ++k) {
    const struct nb_workload* workload = &workloads[selected[k]];
    long batch = quick ? NB_QUICK_BATCH : workload->batch ? workload->batch : NB_BATCH;
    void* state = program->setup(workload->idle);
    if (state == NULL) {
      free(runs);
      return 1;
    }
    int failed = program->run_batch(state, batch) != 0; /* warm-up, not reported */
    for (int r = 0; r < repetitions && !failed; ++r) {
      failed = nb_repetition(program, state, batch, min_time_ns, &runs[k * repetitions + r]);
    }
    program->teardown(state);
    if (failed) {
      fprintf(stderr, "%s: %s failed\n", argv[0], workload->name);
      free(runs);
      return 1;
    }
    double median = 0;
    double* real = malloc(sizeof *real * (size_t)repetitions);
    if (real != NULL) {
      for (int r = 0; r < repetitions; ++r) {
        const struct nb_run* run = &runs[k * repetitions + r];
        real[r] = run->wall_ns / (double)run->round_trips;
      }
      median = nb_median(real, repetitions);
      free(real);
    }
    fprintf(stderr, "%s: %s: %.1f ns/op (median of %d, %ld round trips in the first)\n",
            workload->name, program->implementation, median, repetitions,
            runs[k * repetitions].round_trips);
  }

  FILE* out = out_path ? fopen(out_path, "w") : stdout;
  if (out == NULL) {
    fprintf(stderr, "%s: cannot write %s: %s\n", argv[0], out_path, strerror(errno));
    free(runs);
    return 1;
  }
  fprintf(out, "{\n");
  nb_write_context(out, program);
  fprintf(out, "  \"benchmarks\": [\n");
  for (int k = 0; k < count; ++k) {
    nb_write_workload(out, workloads[selected[k]].name, k, &runs[k * repetitions], repetitions,
                      k == count - 1);
  }
  fprintf(out, "  ]\n}\n");
  free(runs);
  if (ferror(out) || (out != stdout && fclose(out) != 0)) {
    fprintf(stderr, "%s: error writing %s\n", argv[0], out_path ? out_path : "stdout");
    return 1;
  }
  return 0;
}

#endif /* LOOPLAB_NATIVE_BENCH_H */
