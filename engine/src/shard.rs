//! Work dealt to shards, so that one job runs over many machines (`--shard i/n`): which
//! games of a match, which self-play games, which positions to label and which book leaves
//! a shard takes. Every way of dealing lives here; each gives every item to exactly one
//! shard, and every shard a share of every part of the work.

use std::fmt;
use std::str::FromStr;

/// The `index`-th (from 1) of `count` disjoint parts of a job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which part, 1..=count.
    pub index: usize,
    /// How many parts.
    pub count: usize,
}

impl Shard {
    /// The whole job, in one part.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Whether the shard takes item `n` of a numbered list (self-play games, positions to
    /// label): items are dealt in turn.
    #[must_use]
    pub fn holds(&self, n: usize) -> bool {
        n % self.count == self.index - 1
    }

    /// The shard's items among the first `total` of a numbered list, in order.
    pub fn items(&self, total: usize) -> impl Iterator<Item = usize> + use<> {
        (self.index - 1..total).step_by(self.count)
    }

    /// Whether the shard plays game `index` of a match's schedule. Games `2k` and `2k+1`
    /// (one opening, colours swapped) stay together, so each shard's pairs are whole.
    #[must_use]
    pub fn plays(&self, index: usize) -> bool {
        self.holds(index / 2)
    }

    /// Whether the shard takes the item of hash `hash` (book positions, by their key):
    /// a fixed share whatever order or set the items come in, so that a shard resumed, or
    /// run on work another shard has begun, takes the same ones.
    #[must_use]
    pub fn holds_hash(&self, hash: u64) -> bool {
        hash % self.count as u64 == (self.index - 1) as u64
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `i/n`, with 1 <= i <= n.
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("'{text}' is not a shard i/n with 1 <= i <= n (e.g. 2/8)");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_goes_to_exactly_one_shard() {
        let shards: Vec<Shard> = (1..=3).map(|index| Shard { index, count: 3 }).collect();
        for n in 0..100 {
            assert_eq!(shards.iter().filter(|s| s.holds(n)).count(), 1, "item {n}");
            let owner: Vec<&Shard> = shards.iter().filter(|s| s.plays(n)).collect();
            assert_eq!(owner.len(), 1, "game {n}");
            assert!(owner[0].plays(n ^ 1), "game {n}'s pair");
            let hash = (n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            assert_eq!(shards.iter().filter(|s| s.holds_hash(hash)).count(), 1);
        }
        let dealt: Vec<Vec<usize>> = shards.iter().map(|s| s.items(8).collect()).collect();
        assert_eq!(dealt, [vec![0, 3, 6], vec![1, 4, 7], vec![2, 5]]);
        assert!(Shard::WHOLE.items(5).eq(0..5));
    }

    #[test]
    fn shards_parse_and_print_as_i_of_n() {
        assert_eq!("2/8".parse(), Ok(Shard { index: 2, count: 8 }));
        assert_eq!(Shard { index: 2, count: 8 }.to_string(), "2/8");
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
