//! Reading protocol lines with a length limit, so that a client cannot make the engine
//! buffer an endless line, and with invalid UTF-8 reported instead of fatal.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A line, without its line end (LF or CRLF).
    Text(String),
    /// A line longer than the limit; it was read to its end and thrown away.
    TooLong,
    /// A line that is not UTF-8.
    NotUtf8,
}

/// The line being assembled from chunks of input.
#[derive(Debug)]
struct LineBuffer {
    max: usize,
    buf: Vec<u8>,
    too_long: bool,
}

impl LineBuffer {
    fn new(max: usize) -> LineBuffer {
        LineBuffer {
            max,
            buf: Vec::new(),
            too_long: false,
        }
    }

    /// Takes bytes from `available`: how many were used, and the line if one ended.
    fn take(&mut self, available: &[u8]) -> (usize, Option<Line>) {
        let (chunk, used, ended) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], i + 1, true),
            None => (available, available.len(), false),
        };
        if !self.too_long && self.buf.len() + chunk.len() <= self.max {
            self.buf.extend_from_slice(chunk);
        } else {
            self.too_long = true;
            self.buf.clear();
        }
        (used, ended.then(|| self.line()))
    }

    /// The last line at the end of input, if anything was read since the previous one.
    fn finish(&mut self) -> Option<Line> {
        (!self.buf.is_empty() || self.too_long).then(|| self.line())
    }

    fn line(&mut self) -> Line {
        if std::mem::take(&mut self.too_long) {
            self.buf.clear();
            return Line::TooLong;
        }
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        match String::from_utf8(std::mem::take(&mut self.buf)) {
            Ok(text) => Line::Text(text),
            Err(_) => Line::NotUtf8,
        }
    }
}

/// Splits an async byte stream into lines of at most `max` bytes.
#[derive(Debug)]
pub struct LineReader<R> {
    inner: R,
    line: LineBuffer,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    /// Reads from `inner`, refusing lines longer than `max` bytes.
    pub fn new(inner: R, max: usize) -> LineReader<R> {
        LineReader {
            inner,
            line: LineBuffer::new(max),
        }
    }

    /// The next line; `None` at the end of input. A last line without a newline counts.
    ///
    /// # Errors
    /// When reading fails.
    pub async fn next(&mut self) -> std::io::Result<Option<Line>> {
        loop {
            let available = self.inner.fill_buf().await?;
            if available.is_empty() {
                return Ok(self.line.finish());
            }
            let (used, line) = self.line.take(available);
            self.inner.consume(used);
            if line.is_some() {
                return Ok(line);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIXED: &[u8] = b"isready\r\nabcdefghijkl\nx\xffy\n\nlast";

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
        let expected = vec![
            Line::Text("isready".into()),
            Line::TooLong,
            Line::NotUtf8,
            Line::Text(String::new()),
            Line::Text("last".into()),
        ];
        assert_eq!(read_all(MIXED, 10).await, expected);
    }

    #[tokio::test]
    async fn a_line_of_exactly_the_limit_is_kept() {
        assert_eq!(
            read_all(b"0123456789\n", 10).await,
            vec![Line::Text("0123456789".into())]
        );
        assert_eq!(read_all(b"0123456789a\n", 10).await, vec![Line::TooLong]);
        assert_eq!(read_all(b"0123456789a", 10).await, vec![Line::TooLong]);
    }
}
