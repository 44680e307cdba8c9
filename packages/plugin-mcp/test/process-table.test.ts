// The process-table sources' parsing and the commands they issue. `ps` is also run for real here;
// the Windows source is tested on sample outputs only, as no Windows machine runs these tests.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parsePs, psSource } from '../src/transport/process-table/ps.js';
import {
  parseWin32Processes,
  TABLE_COMMAND,
  taskkillArgs,
} from '../src/transport/process-table/windows.js';

describe('the ps source', () => {
  it('parses procps and BSD lines alike, the start time with its padding made one space', () => {
    // procps-ng 4 (Linux) and BSD ps (macOS) print these columns the same way under LC_ALL=C;
    // BSD prints the kernel's session pointer under `sess`, which is why sessions are Linux only.
    const text = [
      '    1     0     1     1 Ss   Tue Jan  2 15:04:05 2024',
      '  812     1   812   812 S    Tue Jan  2 15:04:09 2024',
      '  813   812   812   812 Z+   Wed Jan 10 09:00:00 2024',
      '  900     1   900     0 Ss   Wed Jan 10 09:00:00 2024',
      '  901   900  garbled',
      '',
    ].join('\n');
    const linux = parsePs(text, true);
    expect([...linux.keys()]).toEqual([1, 812, 813, 900]);
    expect(linux.get(812)).toEqual({
      pid: 812,
      ppid: 1,
      pgid: 812,
      sid: 812,
      running: true,
      startTime: 'Tue Jan 2 15:04:09 2024',
    });
    expect(linux.get(813)?.running).toBe(false);
    expect(parsePs(text, false).get(812)?.sid).toBe(0);
  });

  it('reads this process from one real ps call, as /proc knows it', async () => {
    const table = await psSource.next();
    const self = table.get(process.pid);
    expect(self).toMatchObject({ pid: process.pid, ppid: process.ppid, running: true });
    const lstart = execFileSync('ps', ['-o', 'lstart=', '-p', String(process.pid)], {
      encoding: 'utf8',
      env: { ...process.env, LC_ALL: 'C' },
    });
    expect(self?.startTime).toBe(lstart.trim().replace(/\s+/g, ' '));
  });
});

// SAMPLES: constructed from the documented output of ConvertTo-Csv -NoTypeInformation (Windows
// PowerShell 5.1: a header of quoted property names, every value quoted, CRLF line ends) for the
// properties TABLE_COMMAND selects, with CreationDate formatted by DateTime.ToString('o'). They
// were NOT recorded on a real machine: there is no Windows machine here. CI's windows runner runs
// the real command (the orphan-reap suite under the windows table).
const WIN32_SAMPLE = [
  '"ProcessId","ParentProcessId","CreationDate"',
  '"0","0",""',
  '"4","0","2024-01-02T07:00:01.1875000Z"',
  '"5120","4388","2024-01-02T15:04:05.1234560Z"',
  '"6200","5120","2024-01-02T15:04:05.3000010Z"',
  '"6344","6200","2024-01-02T15:04:06.0000000Z"',
  '',
].join('\r\n');

describe('the Windows source', () => {
  it('asks PowerShell for pid, parent pid and a culture-free creation time, as CSV', () => {
    expect(TABLE_COMMAND.file).toBe('powershell.exe');
    const script = TABLE_COMMAND.args.at(-1);
    expect(TABLE_COMMAND.args).toContain('-NoProfile');
    expect(script).toMatch(
      /^Get-CimInstance Win32_Process \| Select-Object ProcessId,ParentProcessId,/,
    );
    expect(script).toContain(".ToUniversalTime().ToString('o')");
    expect(script).toMatch(/\| ConvertTo-Csv -NoTypeInformation$/);
  });

  it('parses the CSV, leaving out a process without a creation date', () => {
    const table = parseWin32Processes(WIN32_SAMPLE);
    expect([...table.keys()]).toEqual([4, 5120, 6200, 6344]);
    expect(table.get(6200)).toEqual({
      pid: 6200,
      ppid: 5120,
      pgid: 0,
      sid: 0,
      running: true,
      startTime: '2024-01-02T15:04:05.3000010Z',
    });
  });

  it('reads values written without quotes too', () => {
    const text = 'ProcessId,ParentProcessId,CreationDate\n7,4,"2024-01-02T07:00:01.0000000Z"\n8,7,';
    expect([...parseWin32Processes(text).keys()]).toEqual([7]);
  });

  it('refuses output that is not the columns it asked for', () => {
    expect(() => parseWin32Processes('"Handle","Name"\r\n"4","System"\r\n')).toThrow(
      /not the columns asked for/,
    );
    expect(() => parseWin32Processes('')).toThrow(/not the columns asked for/);
  });

  it('start times sort as text in the order the processes started', () => {
    const starts = [...parseWin32Processes(WIN32_SAMPLE).values()].map((entry) => entry.startTime);
    expect([...starts].sort()).toEqual(starts);
  });

  it('ends each recorded process with its tree, forcefully, in one taskkill', () => {
    expect(taskkillArgs([5120, 6344])).toEqual(['/F', '/T', '/PID', '5120', '/PID', '6344']);
  });
});
