//! The metric verdicts of one file, packed.
//!
//! A check of 189,000 files holds a verdict for each until it is rendered. A [`MetricVerdict`]
//! takes 48 bytes (its counts an `Option` of 24, the `[[debt]]` allowance an `Option` of 16), and
//! a vector of them 24 bytes more and an allocation a file. Packed, a metric takes 24 bytes
//! (the counts, with a flag for "none", beside the metric and its status) in one boxed slice
//! of the file's size, and the allowances, which only a `[[debt]]` entry sets, are kept apart
//! and only when there is one.

use crate::model::{Counts, Metric};

use super::{MetricStatus, MetricVerdict};

/// One metric's verdict without its allowance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Packed {
    /// The counts; meaningless when `counted` is false.
    counts: Counts,
    metric: Metric,
    status: MetricStatus,
    /// False when the metric is unavailable (no counts).
    counted: bool,
}

/// The verdicts of a file's metrics, one per policy metric for a measured file, in the
/// policy's order; none otherwise. Read as [`MetricVerdict`] values ([`Metrics::iter`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Metrics {
    packed: Box<[Packed]>,
    /// The allowance of each metric, when a `[[debt]]` entry set one of them.
    allowed: Option<Box<[Option<u64>]>>,
}

impl Metrics {
    /// Every metric's verdict, in order.
    pub fn iter(&self) -> impl Iterator<Item = MetricVerdict> + '_ {
        let allowed = |at: usize| {
            self.allowed
                .as_ref()
                .and_then(|a| a.get(at).copied().flatten())
        };
        self.packed
            .iter()
            .enumerate()
            .map(move |(at, p)| MetricVerdict {
                metric: p.metric,
                counts: p.counted.then_some(p.counts),
                status: p.status,
                allowed: allowed(at),
            })
    }

    /// The verdict of `metric`, `None` when the file has none.
    pub fn get(&self, metric: Metric) -> Option<MetricVerdict> {
        self.iter().find(|m| m.metric == metric)
    }

    /// How many metrics are judged.
    pub fn len(&self) -> usize {
        self.packed.len()
    }

    /// True when no metric is judged (a file not measured).
    pub fn is_empty(&self) -> bool {
        self.packed.is_empty()
    }

    /// Changes each verdict with `change`, in order.
    pub(crate) fn update(&mut self, change: impl FnMut(&mut MetricVerdict)) {
        let mut all: Vec<MetricVerdict> = self.iter().collect();
        all.iter_mut().for_each(change);
        *self = all.into_iter().collect();
    }
}

/// Verdicts in order; the allowances are kept only when one is set.
impl FromIterator<MetricVerdict> for Metrics {
    fn from_iter<I: IntoIterator<Item = MetricVerdict>>(verdicts: I) -> Metrics {
        let mut allowed = Vec::new();
        let packed: Box<[Packed]> = (verdicts.into_iter().enumerate())
            .map(|(at, m)| {
                if m.allowed.is_some() {
                    allowed.resize(at, None);
                    allowed.push(m.allowed);
                }
                Packed {
                    counts: m.counts.unwrap_or_default(),
                    metric: m.metric,
                    status: m.status,
                    counted: m.counts.is_some(),
                }
            })
            .collect();
        let allowed = (!allowed.is_empty()).then(|| {
            allowed.resize(packed.len(), None);
            allowed.into_boxed_slice()
        });
        Metrics { packed, allowed }
    }
}

impl From<Vec<MetricVerdict>> for Metrics {
    fn from(verdicts: Vec<MetricVerdict>) -> Metrics {
        verdicts.into_iter().collect()
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    fn verdict(metric: Metric, counts: Option<Counts>, allowed: Option<u64>) -> MetricVerdict {
        let status = match counts {
            None => MetricStatus::Unavailable,
            Some(_) => MetricStatus::Pass,
        };
        MetricVerdict {
            metric,
            counts,
            status,
            allowed,
        }
    }

    #[test]
    fn verdicts_are_given_back_as_made_and_allowances_kept_only_when_set() {
        let made = vec![
            verdict(Metric::Regions, None, None),
            verdict(Metric::Lines, Some(Counts::new(0, 0)), None),
        ];
        let metrics = Metrics::from(made.clone());
        assert_eq!(metrics.iter().collect::<Vec<_>>(), made);
        assert_eq!(metrics.allowed, None);
        assert_eq!((metrics.len(), metrics.is_empty()), (2, false));
        assert_eq!(metrics.get(Metric::Lines), Some(made[1]));
        assert_eq!(metrics.get(Metric::Branches), None);
        assert_eq!(std::mem::size_of::<Packed>(), 24);
        let mut changed = metrics.clone();
        changed.update(|m| {
            if m.metric == Metric::Lines {
                m.allowed = Some(3);
                m.status = MetricStatus::Loose;
            }
        });
        let lines = changed.get(Metric::Lines).expect("lines");
        assert_eq!(
            (lines.allowed, lines.status),
            (Some(3), MetricStatus::Loose)
        );
        assert_eq!(changed.get(Metric::Regions), Some(made[0]));
        assert_eq!(changed.allowed.as_deref(), Some(&[None, Some(3)][..]));
        changed.update(|m| m.allowed = (m.metric == Metric::Regions).then_some(1));
        assert_eq!(changed.allowed.as_deref(), Some(&[Some(1), None][..]));
        let none = Metrics::default();
        assert!(none.is_empty());
        assert_eq!(none.iter().count(), 0);
    }
}
