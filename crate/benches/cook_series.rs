//! Cooking 10 million sample pairs of mixed types through the bulk series API, beside two peers in the
//! same run: the scalar `cook()` called once per pair, and a bare loop that does only the arithmetic of
//! one formula with no status checks (the floor any implementation pays).
//! Run: `cargo bench -p counterlens --bench cook_series` (or `npm run bench`).

use counterlens::{cook, cook_series, parse_type, CookOptions, Frequency, RawColumns, RawSample};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

const N: usize = 2_000_000; // per series; five series = 10 M pairs

struct Series {
    ty: &'static str,
    value: Vec<u64>,
    second: Vec<u64>,
    multi: Vec<u64>,
}

/// Five series of realistic raw values: a 32-bit rate, a 100 ns inverse timer beyond 2^53, an average
/// over a base, a raw count, and a multi timer, each with occasional resets.
fn data() -> Vec<Series> {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut rand = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    [
        "PERF_COUNTER_COUNTER",
        "PERF_100NSEC_TIMER_INV",
        "PERF_AVERAGE_BULK",
        "PERF_COUNTER_RAWCOUNT",
        "PERF_100NSEC_MULTI_TIMER",
    ]
    .iter()
    .map(|&ty| {
        let (mut v, mut d) = (1_170_374_257_812u64, 130_058_022_178_447_225u64);
        let mut value = Vec::with_capacity(N);
        let mut second = Vec::with_capacity(N);
        for i in 0..N {
            d += 10_000_000 + rand() % 1000;
            v = if i % 100_000 == 99_999 {
                0
            } else {
                v + rand() % 10_000_000
            };
            value.push(v);
            second.push(d);
        }
        let multi = (0..N).map(|_| 4).collect();
        Series {
            ty,
            value,
            second,
            multi,
        }
    })
    .collect()
}

fn bench(c: &mut Criterion) {
    let series = data();
    let opts = CookOptions::default();
    let mut g = c.benchmark_group("cook 10M pairs of mixed types");
    g.throughput(Throughput::Elements((N * series.len()) as u64));
    g.sample_size(10);
    let mut out = Vec::with_capacity(N);

    g.bench_function("counterlens cook_series (bulk)", |b| {
        b.iter(|| {
            for s in &series {
                let cols = RawColumns {
                    value: &s.value,
                    second: Some(&s.second),
                    frequency: Some(Frequency::Constant(10_000_000)),
                    multi: Some(&s.multi),
                };
                cook_series(parse_type(s.ty).unwrap(), &cols, &opts, &mut out).unwrap();
                black_box(&out);
            }
        })
    });

    g.bench_function("peer: cook() once per pair", |b| {
        b.iter(|| {
            for s in &series {
                let ty = parse_type(s.ty).unwrap();
                out.clear();
                let sample = |i: usize| {
                    RawSample::new(s.value[i])
                        .second(s.second[i])
                        .frequency(10_000_000)
                        .multi(s.multi[i])
                };
                out.push(f64::NAN);
                for i in 1..N {
                    out.push(
                        cook(ty, Some(&sample(i - 1)), &sample(i), &opts)
                            .unwrap()
                            .value
                            .unwrap_or(f64::NAN),
                    );
                }
                black_box(&out);
            }
        })
    });

    g.bench_function("floor: bare dN/(dD/F) loop, no checks", |b| {
        b.iter(|| {
            for s in &series {
                out.clear();
                out.push(f64::NAN);
                for i in 1..N {
                    let dn = s.value[i].wrapping_sub(s.value[i - 1]) as f64;
                    let dd = s.second[i].wrapping_sub(s.second[i - 1]) as f64;
                    out.push(dn / (dd / 10_000_000.0));
                }
                black_box(&out);
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
