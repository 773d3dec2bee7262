import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { formatDay } from '@boatshop/state';
import { parseDay } from '../leads/lead-offers';
import { useCan } from '../staff/use-can';
import {
  WEEKDAYS,
  hoursText,
  loadCalendars,
  loadDay,
  messageOf,
  parseHours,
  removeException,
  saveCalendar,
  setException,
  type DayViewing,
  type MarinaCalendar,
} from '../viewings/marina-calendars';
import '../styles.css';
import '../orders/orders.css';
import '../leads/leads.css';

const today = () => {
  const now = new Date();
  return `${String(now.getDate()).padStart(2, '0')}/${String(now.getMonth() + 1).padStart(2, '0')}/${now.getFullYear()}`;
};

function CalendarEditor({
  calendar,
  canWrite,
  onSaved,
}: {
  calendar: MarinaCalendar;
  canWrite: boolean;
  onSaved: (c: MarinaCalendar) => void;
}) {
  const [address, setAddress] = useState(calendar.address);
  const [timeZone, setTimeZone] = useState(calendar.timeZone);
  const [slot, setSlot] = useState(String(calendar.slotMinutes));
  const [buffer, setBuffer] = useState(String(calendar.bufferMinutes));
  const [seaTrial, setSeaTrial] = useState(String(calendar.seaTrialMinutes ?? 150));
  const [hours, setHours] = useState<Record<string, string>>(
    Object.fromEntries(WEEKDAYS.map(([day]) => [day, hoursText(calendar.weeklyHours[day])])),
  );
  const [exceptionDay, setExceptionDay] = useState('');
  const [exceptionHours, setExceptionHours] = useState('');
  const [exceptionNote, setExceptionNote] = useState('');
  const [message, setMessage] = useState('');

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const weeklyHours: Record<string, [string, string][]> = {};
    for (const [day, name] of WEEKDAYS) {
      const parsed = parseHours(hours[day] ?? '');
      if (parsed === null) return setMessage(`${name}: write hours as 09:00-12:00, 14:00-18:00 (empty: closed).`);
      if (parsed.length > 0) weeklyHours[day] = parsed;
    }
    try {
      const saved = await saveCalendar({
        ...calendar,
        address,
        timeZone,
        slotMinutes: Number(slot),
        bufferMinutes: Number(buffer),
        seaTrialMinutes: Number(seaTrial),
        weeklyHours,
      });
      onSaved(saved);
      setMessage('Saved.');
    } catch (error) {
      setMessage(messageOf(error, 'The calendar could not be saved.'));
    }
  }

  async function addException(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const day = parseDay(exceptionDay);
    const parsed = parseHours(exceptionHours);
    if (!day) return setMessage('Give the day as DD/MM/YYYY.');
    if (parsed === null) return setMessage('Write the hours as 09:00-12:00 (empty: closed all day).');
    try {
      onSaved(await setException(calendar.id, day, parsed.length > 0 ? parsed : null, exceptionNote));
      setExceptionDay('');
      setExceptionHours('');
      setExceptionNote('');
      setMessage('');
    } catch (error) {
      setMessage(messageOf(error, 'The day could not be saved.'));
    }
  }

  return (
    <section className="admin-offer" aria-label={calendar.marina}>
      <h3>{calendar.marina}</h3>
      {message ? <p role="status">{message}</p> : null}
      <form className="admin-lead-action admin-offer-form" onSubmit={save}>
        <label>
          Address
          <input value={address} onChange={(event) => setAddress(event.target.value)} disabled={!canWrite} />
        </label>
        <label>
          Time zone
          <input value={timeZone} onChange={(event) => setTimeZone(event.target.value)} disabled={!canWrite} />
        </label>
        <label>
          Viewing length (minutes)
          <input value={slot} onChange={(event) => setSlot(event.target.value)} inputMode="numeric" disabled={!canWrite} />
        </label>
        <label>
          Buffer between viewings (minutes)
          <input value={buffer} onChange={(event) => setBuffer(event.target.value)} inputMode="numeric" disabled={!canWrite} />
        </label>
        <label>
          Sea trial length (minutes)
          <input value={seaTrial} onChange={(event) => setSeaTrial(event.target.value)} inputMode="numeric" disabled={!canWrite} />
        </label>
        {WEEKDAYS.map(([day, name]) => (
          <label key={day}>
            {name}
            <input
              value={hours[day] ?? ''}
              placeholder="closed"
              onChange={(event) => setHours({ ...hours, [day]: event.target.value })}
              disabled={!canWrite}
            />
          </label>
        ))}
        {canWrite ? (
          <button type="submit" className="bs-button">
            Save calendar
          </button>
        ) : null}
      </form>
      <h4>Exceptions and holidays</h4>
      <ul>
        {calendar.exceptions.map((exception) => (
          <li key={exception.day}>
            {formatDay(exception.day)}: {exception.hours ? hoursText(exception.hours) : 'closed'}
            {exception.note ? ` (${exception.note})` : ''}{' '}
            {canWrite ? (
              <button type="button" className="bs-button" onClick={() => void removeException(calendar.id, exception.day).then(onSaved)}>
                Remove
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {canWrite ? (
        <form className="admin-lead-action admin-offer-form" onSubmit={addException} aria-label={`New exception at ${calendar.marina}`}>
          <label>
            Day (DD/MM/YYYY)
            <input value={exceptionDay} onChange={(event) => setExceptionDay(event.target.value)} required />
          </label>
          <label>
            Hours that day (empty: closed)
            <input value={exceptionHours} onChange={(event) => setExceptionHours(event.target.value)} />
          </label>
          <label>
            Note
            <input value={exceptionNote} onChange={(event) => setExceptionNote(event.target.value)} maxLength={200} />
          </label>
          <button type="submit" className="bs-button">
            Add exception
          </button>
        </form>
      ) : null}
    </section>
  );
}

/** "Viewing, 60 min" or "Sea trial, 150 min": what is booked and for how long. */
const kindText = (viewing: DayViewing) =>
  `${viewing.kind === 'sea_trial' ? 'Sea trial' : 'Viewing'}, ${Math.round((Date.parse(viewing.endsAt) - Date.parse(viewing.startsAt)) / 60_000)} min`;

/** /admin/viewings: the day's viewings and sea trials at a glance, and each marina's calendar. */
export default function AdminViewings() {
  const canWrite = useCan()('leads.write');
  const [calendars, setCalendars] = useState<MarinaCalendar[] | null>(null);
  const [dayText, setDayText] = useState(today);
  const [viewings, setViewings] = useState<DayViewing[]>([]);
  const [error, setError] = useState('');

  const showDay = async (text: string) => {
    const day = parseDay(text);
    if (!day) return setError('Give the day as DD/MM/YYYY.');
    try {
      setViewings(await loadDay(day));
      setError('');
    } catch (caught) {
      setError(messageOf(caught, 'The viewings could not be loaded.'));
    }
  };

  useEffect(() => {
    loadCalendars()
      .then(setCalendars)
      .catch((caught: unknown) => setError(messageOf(caught, 'The calendars could not be loaded.')));
    loadDay(parseDay(today())!)
      .then(setViewings)
      .catch((caught: unknown) => setError(messageOf(caught, 'The viewings could not be loaded.')));
  }, []);

  return (
    <section className="admin-page" aria-labelledby="admin-viewings-title">
      <p>
        <Link to="/admin/leads">All leads</Link>
      </p>
      <h1 id="admin-viewings-title">Viewings</h1>
      {error ? (
        <p className="bs-error" role="alert">
          {error}
        </p>
      ) : null}
      <form
        className="admin-filters"
        onSubmit={(event) => {
          event.preventDefault();
          void showDay(dayText);
        }}
      >
        <label>
          Day (DD/MM/YYYY)
          <input value={dayText} onChange={(event) => setDayText(event.target.value)} />
        </label>
        <button type="submit" className="bs-button">
          Show
        </button>
      </form>
      <table className="admin-table">
        <caption>Viewings of the day</caption>
        <thead>
          <tr>
            <th scope="col">Time (marina)</th>
            <th scope="col">Kind</th>
            <th scope="col">Marina</th>
            <th scope="col">Boat</th>
            <th scope="col">Buyer</th>
          </tr>
        </thead>
        <tbody>
          {viewings.length === 0 ? (
            <tr>
              <td colSpan={5}>No viewing booked that day.</td>
            </tr>
          ) : (
            viewings.map((viewing) => (
              <tr key={viewing.id}>
                <td>{viewing.label.slice(11)}</td>
                <td>{kindText(viewing)}</td>
                <td>{viewing.place.marina}</td>
                <td>{viewing.leadId ? <Link to={`/admin/leads/${viewing.leadId}`}>{viewing.productName}</Link> : viewing.productName}</td>
                <td>
                  {viewing.buyerName} ({viewing.email})
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
      <h2>Marina calendars</h2>
      {calendars === null ? (
        <p className="admin-muted" role="status">
          Loading…
        </p>
      ) : (
        calendars.map((calendar) => (
          <CalendarEditor
            key={calendar.id}
            calendar={calendar}
            canWrite={canWrite}
            onSaved={(saved) => setCalendars(calendars.map((c) => (c.id === saved.id ? saved : c)))}
          />
        ))
      )}
    </section>
  );
}
