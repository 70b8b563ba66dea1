//! Reading protocol lines with a length limit, so that a client cannot make the server
//! buffer an endless line, and with invalid UTF-8 reported instead of fatal.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// A line, without its line end (LF or CRLF).
    Text(String),
    /// A line longer than the limit; it was read to its end and thrown away.
    TooLong,
    /// A line that is not UTF-8.
    NotUtf8,
}

/// Splits a byte stream into lines of at most `max` bytes.
pub(crate) struct LineReader<R> {
    inner: R,
    max: usize,
    buf: Vec<u8>,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    pub(crate) fn new(inner: R, max: usize) -> LineReader<R> {
        LineReader {
            inner,
            max,
            buf: Vec::new(),
        }
    }

    /// The next line; `None` at the end of input. A last line without a newline counts.
    pub(crate) async fn next(&mut self) -> std::io::Result<Option<Line>> {
        self.buf.clear();
        let mut too_long = false;
        loop {
            let available = self.inner.fill_buf().await?;
            if available.is_empty() {
                if self.buf.is_empty() && !too_long {
                    return Ok(None);
                }
                break;
            }
            let (chunk, used, ended) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (&available[..i], i + 1, true),
                None => (available, available.len(), false),
            };
            if !too_long && self.buf.len() + chunk.len() <= self.max {
                self.buf.extend_from_slice(chunk);
            } else {
                too_long = true;
                self.buf.clear();
            }
            self.inner.consume(used);
            if ended {
                break;
            }
        }
        if too_long {
            return Ok(Some(Line::TooLong));
        }
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        Ok(Some(
            match String::from_utf8(std::mem::take(&mut self.buf)) {
                Ok(text) => Line::Text(text),
                Err(_) => Line::NotUtf8,
            },
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn read_all(input: &[u8], max: usize) -> Vec<Line> {
        let mut reader = LineReader::new(tokio::io::BufReader::with_capacity(4, input), max);
        let mut lines = Vec::new();
        while let Some(line) = reader.next().await.unwrap() {
            lines.push(line);
        }
        lines
    }

    #[tokio::test]
    async fn splits_limits_and_checks_encoding() {
        let lines = read_all(b"isready\r\nabcdefghijkl\nx\xffy\n\nlast", 10).await;
        assert_eq!(
            lines,
            vec![
                Line::Text("isready".into()),
                Line::TooLong,
                Line::NotUtf8,
                Line::Text(String::new()),
                Line::Text("last".into()),
            ]
        );
    }

    #[tokio::test]
    async fn a_line_of_exactly_the_limit_is_kept() {
        assert_eq!(
            read_all(b"0123456789\n", 10).await,
            vec![Line::Text("0123456789".into())]
        );
        assert_eq!(read_all(b"0123456789a\n", 10).await, vec![Line::TooLong]);
    }
}
