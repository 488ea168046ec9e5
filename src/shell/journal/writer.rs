//! A journal written on a thread of its own, so that no write or sync of it holds up a key or a
//! frame. Records go to the thread in the order they are appended; what has piled up while it
//! was writing goes in one write (and at most one sync). Dropping the [`Writer`] waits for every
//! record appended before it to be written: a session's end record is on disk when its loop
//! returns.
//!
//! Not for: what a journal line holds or when it is synced ([`Journal::append`]).

use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use super::Journal;
use crate::core::session::Record;

/// The handle on a journal being written by its thread.
pub struct Writer {
    records: Option<mpsc::Sender<Vec<Record>>>,
    thread: Option<JoinHandle<()>>,
    /// The first failure to write, until it is taken.
    failure: Arc<Mutex<Option<String>>>,
}

impl Writer {
    /// Hand `journal` to a thread of its own, which begins it (its header says the screen is
    /// `size`) and then writes what is appended.
    pub fn spawn(mut journal: Journal, size: (u16, u16)) -> Writer {
        let (tx, rx) = mpsc::channel::<Vec<Record>>();
        let failure = Arc::new(Mutex::new(None));
        let failed = failure.clone();
        let thread = std::thread::Builder::new().name("redline-journal".into()).spawn(move || {
            if let Some(warning) = journal.begin(size.0, size.1) {
                *failed.lock().unwrap_or_else(PoisonError::into_inner) = Some(warning);
            }
            while let Ok(mut batch) = rx.recv() {
                while let Ok(more) = rx.try_recv() {
                    batch.extend(more);
                }
                if let Some(warning) = journal.append(&batch) {
                    *failed.lock().unwrap_or_else(PoisonError::into_inner) = Some(warning);
                }
            }
        });
        match thread {
            Ok(thread) => Writer { records: Some(tx), thread: Some(thread), failure },
            Err(e) => {
                let warning = format!("this session is not recorded: cannot start its writer: {e}");
                Writer { records: None, thread: None, failure: Arc::new(Mutex::new(Some(warning))) }
            }
        }
    }

    /// Append `records` (written in order, soon).
    pub fn append(&self, records: Vec<Record>) {
        if let (Some(tx), false) = (&self.records, records.is_empty()) {
            let _ = tx.send(records);
        }
    }

    /// The first failure to write the journal, once (nothing is written after it).
    pub fn failure(&self) -> Option<String> {
        self.failure.lock().unwrap_or_else(PoisonError::into_inner).take()
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        // The thread ends once every record sent before is written.
        self.records = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::session::{self, EndRecord};

    #[test]
    fn every_record_appended_is_on_disk_in_order_once_the_writer_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let journal = Journal::create(
            dir.path(),
            super::super::tests::header("w1", 1_000),
            Vec::new(),
            session::DEFAULT_MAX_TEXT_BYTES,
        )
        .unwrap();
        let path = journal.path().to_path_buf();
        let writer = Writer::spawn(journal, (80, 24));
        for t in 0..500 {
            writer.append(vec![Record::Chunk { t, text: format!("{t} ") }]);
        }
        let end = EndRecord { t: 500, pending: 0, applied: 0, rejected: 0, failed: 0, conflict: 0 };
        writer.append(vec![Record::End(end)]);
        assert_eq!(writer.failure(), None);
        drop(writer);
        let read = super::super::load(&path).expect("the journal reads back");
        let chunks: Vec<u64> = read
            .records
            .iter()
            .filter_map(|r| match r {
                Record::Chunk { t, .. } => Some(*t),
                _ => None,
            })
            .collect();
        assert_eq!(chunks, (0..500).collect::<Vec<_>>(), "every chunk, in order");
        assert!(matches!(read.records.last(), Some(Record::End(_))), "the end record is last");
    }

    #[test]
    fn a_journal_that_cannot_be_written_says_so_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut journal = Journal::create(
            dir.path(),
            super::super::tests::header("w2", 1_000),
            Vec::new(),
            session::DEFAULT_MAX_TEXT_BYTES,
        )
        .unwrap();
        // A handle that cannot write: as a full or vanished disk would answer.
        journal.file = std::fs::File::open(journal.path()).unwrap();
        let writer = Writer::spawn(journal, (80, 24));
        writer.append(vec![Record::Chunk { t: 1, text: "x".into() }]);
        let mut warning = None;
        for _ in 0..500 {
            warning = writer.failure();
            if warning.is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let warning = warning.expect("the failure is reported");
        assert!(warning.contains("cannot be written"), "{warning}");
        assert_eq!(writer.failure(), None, "once");
    }
}
