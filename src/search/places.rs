//! Where the rest of a capped result is (SPEC §4a): up to three places,
//! directories or (for grep) files, that hold most of the results the page
//! left out, largest first, each named as narrowly as it can be without
//! losing much of what it holds.
//!
//! The places start as the top of the tree (a chain of directories that
//! hold everything is followed down). Then, while one of the places shown
//! can be replaced by its parts and the places shown lose at most a tenth
//! of what it held, it is: `src/ 3,200` becomes `src/gen/ 3,100` when only
//! 100 are elsewhere in `src/`, `packages/ 3,700` becomes `packages/a/
//! 3,000, packages/b/ 700`, but `tests/ 6` stays whole rather than become
//! `tests/t1.rs 2, tests/t2.rs 2`. An agent can pass any place as `path`.

use std::borrow::Cow;
use std::collections::HashMap;

/// Places named.
pub const PLACES: usize = 3;
/// A place is replaced by its parts only if the places shown lose at most
/// 1/`LOSS` of its count.
const LOSS: usize = 10;

/// What a count is of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leaf {
    /// One file (grep): the place is the file.
    File,
    /// The files directly in a directory (glob): the place is the directory.
    FilesIn,
}

/// The places of `leaves` (displayed paths: a file for [`Leaf::File`], a
/// directory, `""` for the workdir, for [`Leaf::FilesIn`]), as display names
/// (directories end in `/`, the workdir is `./`) with counts, largest
/// first, ties in path order.
pub fn largest<'a>(
    leaves: impl IntoIterator<Item = (&'a str, usize)>,
    leaf: Leaf,
) -> Vec<(String, usize)> {
    let mut tree = Tree::default();
    for (path, count) in leaves {
        if count > 0 {
            tree.add(path, count, leaf);
        }
    }
    let top = tree.settle(0);
    let mut places = if top == 0 { tree.parts(0) } else { vec![top] };
    loop {
        tree.order(&mut places);
        let shown = tree.shown(&places);
        let split = (0..places.len().min(PLACES)).find_map(|i| {
            let id = places[i];
            if tree.nodes[id].children.len() < 2 {
                return None;
            }
            let mut trial: Vec<usize> = places.clone();
            trial.swap_remove(i);
            trial.extend(tree.parts(id));
            tree.order(&mut trial);
            let lost = shown.saturating_sub(tree.shown(&trial));
            (lost * LOSS <= tree.nodes[id].count).then_some(trial)
        });
        match split {
            Some(trial) => places = trial,
            None => break,
        }
    }
    places
        .into_iter()
        .take(PLACES)
        .map(|id| (tree.nodes[id].place.to_string(), tree.nodes[id].count))
        .collect()
}

#[derive(Debug)]
struct Node<'a> {
    place: Cow<'a, str>,
    count: usize,
    parent: usize,
    children: Vec<usize>,
}

/// Directories and leaves, node 0 the workdir. A leaf's name borrows from
/// the input, and a path costs one hash lookup (its directory's): a large
/// remainder is counted in well under a millisecond.
#[derive(Debug)]
struct Tree<'a> {
    nodes: Vec<Node<'a>>,
    /// A directory's path (no trailing `/`; `""` the workdir) → its node.
    dirs: HashMap<&'a str, usize>,
}

impl Default for Tree<'_> {
    fn default() -> Self {
        Self {
            nodes: vec![Node {
                place: Cow::Borrowed("./"),
                count: 0,
                parent: usize::MAX,
                children: Vec::new(),
            }],
            dirs: HashMap::from([("", 0)]),
        }
    }
}

impl<'a> Tree<'a> {
    /// Count `count` at `path` (each path once).
    fn add(&mut self, path: &'a str, count: usize, leaf: Leaf) {
        let leaf = match leaf {
            Leaf::File => {
                let dir = self.dir(parent_of(path));
                self.push(dir, Cow::Borrowed(path))
            }
            Leaf::FilesIn => {
                let dir = self.dir(path);
                let place = self.nodes[dir].place.clone();
                self.push(dir, place)
            }
        };
        let mut id = leaf;
        while id != usize::MAX {
            self.nodes[id].count += count;
            id = self.nodes[id].parent;
        }
    }

    /// The node of directory `path`, made (with its parents) if new.
    fn dir(&mut self, path: &'a str) -> usize {
        if let Some(&id) = self.dirs.get(path) {
            return id;
        }
        let parent = self.dir(parent_of(path));
        let place = if path == "/" {
            Cow::Borrowed("/")
        } else {
            Cow::Owned(format!("{path}/"))
        };
        let id = self.push(parent, place);
        self.dirs.insert(path, id);
        id
    }

    fn push(&mut self, parent: usize, place: Cow<'a, str>) -> usize {
        let id = self.nodes.len();
        self.nodes.push(Node {
            place,
            count: 0,
            parent,
            children: Vec::new(),
        });
        self.nodes[parent].children.push(id);
        id
    }

    /// Follow a chain of only children down: a directory that holds one
    /// thing is named by that thing.
    fn settle(&self, mut id: usize) -> usize {
        while let [only] = self.nodes[id].children[..] {
            id = only;
        }
        id
    }

    /// The parts of `id`, each settled.
    fn parts(&self, id: usize) -> Vec<usize> {
        self.nodes[id]
            .children
            .iter()
            .map(|&c| self.settle(c))
            .collect()
    }

    /// Largest first, ties by place.
    fn order(&self, places: &mut [usize]) {
        places.sort_by(|&a, &b| {
            let (a, b) = (&self.nodes[a], &self.nodes[b]);
            b.count.cmp(&a.count).then_with(|| a.place.cmp(&b.place))
        });
    }

    /// What the places shown (the first [`PLACES`] of ordered `places`) hold.
    fn shown(&self, places: &[usize]) -> usize {
        places
            .iter()
            .take(PLACES)
            .map(|&id| self.nodes[id].count)
            .sum()
    }
}

/// The directory `path` is in: `""` for the workdir, `/` for the top of
/// an absolute path.
fn parent_of(path: &str) -> &str {
    match path.rfind('/') {
        Some(0) if path.len() > 1 => "/",
        None | Some(0) => "",
        Some(i) => &path[..i],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn places(leaves: &[(&str, usize)], leaf: Leaf) -> Vec<(String, usize)> {
        largest(leaves.iter().copied(), leaf)
    }

    fn named(list: &[(&str, usize)]) -> Vec<(String, usize)> {
        list.iter().map(|&(p, n)| (p.to_owned(), n)).collect()
    }

    #[test]
    fn a_place_that_holds_nearly_all_of_its_parent_is_named_instead() {
        let mut leaves = vec![
            ("src/lib/a.rs", 100),
            ("tests/fixtures/f.rs", 500),
            ("docs/d.md", 150),
        ];
        let generated: Vec<String> = (0..31).map(|i| format!("src/gen/g{i:02}.rs")).collect();
        leaves.extend(generated.iter().map(|p| (p.as_str(), 100)));
        assert_eq!(
            places(&leaves, Leaf::File),
            named(&[
                ("src/gen/", 3100),
                ("tests/fixtures/f.rs", 500),
                ("docs/d.md", 150)
            ])
        );
    }

    #[test]
    fn many_small_files_stay_one_directory() {
        let generated: Vec<String> = (0..38).map(|i| format!("src/gen_{i}.rs")).collect();
        let mut leaves: Vec<(&str, usize)> = generated.iter().map(|p| (p.as_str(), 1)).collect();
        leaves.extend([("tests/t1.rs", 2), ("tests/t2.rs", 2), ("tests/t3.rs", 2)]);
        assert_eq!(
            places(&leaves, Leaf::File),
            named(&[("src/", 38), ("tests/", 6)])
        );
    }

    #[test]
    fn one_big_directory_is_split_into_its_parts() {
        let leaves = [
            ("packages/a/x.ts", 3000),
            ("packages/b/y.ts", 700),
            ("docs/z.md", 50),
        ];
        assert_eq!(
            places(&leaves, Leaf::File),
            named(&[
                ("packages/a/x.ts", 3000),
                ("packages/b/y.ts", 700),
                ("docs/z.md", 50)
            ])
        );
        let leaves = [("packages/a", 3000), ("packages/b", 700), ("docs", 50)];
        assert_eq!(
            places(&leaves, Leaf::FilesIn),
            named(&[("packages/a/", 3000), ("packages/b/", 700), ("docs/", 50)])
        );
    }

    #[test]
    fn files_in_the_workdir_and_ties_in_path_order() {
        assert_eq!(
            places(&[("", 3), ("b", 2), ("a", 2)], Leaf::FilesIn),
            named(&[("./", 3), ("a/", 2), ("b/", 2)])
        );
        assert_eq!(
            places(
                &[("z.rs", 1), ("y.rs", 1), ("x.rs", 1), ("w.rs", 1)],
                Leaf::File
            ),
            named(&[("w.rs", 1), ("x.rs", 1), ("y.rs", 1)])
        );
        assert_eq!(places(&[], Leaf::File), Vec::new());
    }

    #[test]
    fn absolute_paths_keep_their_root() {
        assert_eq!(
            places(
                &[("/opt/a/x.rs", 2), ("/opt/b/y.rs", 1), ("opt/c.rs", 1)],
                Leaf::File
            ),
            named(&[("/opt/a/x.rs", 2), ("/opt/b/y.rs", 1), ("opt/c.rs", 1)])
        );
        assert_eq!(
            places(&[("/opt/a", 2), ("/opt/b", 1), ("opt", 1)], Leaf::FilesIn),
            named(&[("/opt/a/", 2), ("/opt/b/", 1), ("opt/", 1)])
        );
    }

    #[test]
    fn a_directory_with_files_of_its_own_keeps_them_apart() {
        // 500 files directly in src/, 3,000 under src/gen/: src/ is split
        // only if its parts lose at most a tenth of it, and they lose none.
        assert_eq!(
            places(
                &[("src", 500), ("src/gen", 3000), ("lib", 10)],
                Leaf::FilesIn
            ),
            named(&[("src/gen/", 3000), ("src/", 500), ("lib/", 10)])
        );
    }
}
