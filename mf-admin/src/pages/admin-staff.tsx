import { useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { ROLE_PERMISSIONS, STAFF_ROLES, type StaffRole } from '@boatshop/contract/constants';
import { $session, formatDate } from '@boatshop/state';
import { $staff, changeStaffRole, inviteStaff, loadStaff, messageOf, removeStaff, withdrawInvitation } from '../staff/staff';
import { StepUpDialog } from '../components/step-up-dialog';
import '../styles.css';
import '../staff/staff.css';

export const ROLE_NAMES: Record<StaffRole, string> = { owner: 'Owner', sales: 'Sales', accountant: 'Accountant', editor: 'Editor' };

/** /admin/staff (owners): who works on the shop in which role, invitations by e-mail, role changes and removals. */
export default function AdminStaff() {
  const { status, list, error } = useStore($staff);
  const { user } = useStore($session);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<StaffRole>('sales');
  const [notice, setNotice] = useState('');
  const [problem, setProblem] = useState('');

  useEffect(() => {
    void loadStaff();
  }, []);

  async function attempt(action: () => Promise<void>, done: string) {
    setProblem('');
    try {
      await action();
      setNotice(done);
    } catch (failure) {
      setNotice('');
      setProblem(messageOf(failure, 'That did not work. Try again.'));
    }
  }

  function submitInvitation(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void attempt(async () => {
      await inviteStaff(email, role);
      setEmail('');
    }, `Invitation sent to ${email}.`);
  }

  return (
    <section className="admin-page" aria-labelledby="admin-staff-title">
      <div className="admin-page__header">
        <h1 id="admin-staff-title">Staff</h1>
      </div>
      <p className="admin-notice" role="status">
        {notice}
      </p>
      {problem ? (
        <div className="bs-error admin-errors" role="alert">
          <p>{problem}</p>
        </div>
      ) : null}
      {status === 'failed' ? (
        <div className="bs-error admin-errors" role="alert">
          <p>{error}</p>
        </div>
      ) : null}

      <div className="admin-table-scroll" role="region" aria-label="Staff" tabIndex={0}>
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.staff.map((member) => (
              <tr key={member.id}>
                <th scope="row">
                  {member.displayName}
                  {member.id === user?.id ? ' (you)' : ''}
                </th>
                <td>{member.email}</td>
                <td>
                  <label className="admin-visually-hidden" htmlFor={`role-${member.id}`}>
                    Role of {member.displayName}
                  </label>
                  <select
                    id={`role-${member.id}`}
                    value={member.role}
                    onChange={(event) =>
                      void attempt(
                        () => changeStaffRole(member.id, event.target.value as StaffRole),
                        `${member.displayName} is now ${ROLE_NAMES[event.target.value as StaffRole]}.`,
                      )
                    }
                  >
                    {STAFF_ROLES.map((option) => (
                      <option key={option} value={option}>
                        {ROLE_NAMES[option]}
                      </option>
                    ))}
                  </select>
                </td>
                <td className="admin-table__actions">
                  <button
                    type="button"
                    className="admin-button-danger"
                    onClick={() => void attempt(() => removeStaff(member.id), `${member.displayName} is no longer staff.`)}
                  >
                    Remove<span className="admin-visually-hidden"> {member.displayName}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h2>Invite someone</h2>
      <form className="admin-form-row" onSubmit={submitInvitation}>
        <label>
          E-mail <input type="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
        </label>
        <label>
          Role{' '}
          <select value={role} onChange={(event) => setRole(event.target.value as StaffRole)}>
            {STAFF_ROLES.map((option) => (
              <option key={option} value={option}>
                {ROLE_NAMES[option]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="bs-button">
          Send invitation
        </button>
      </form>
      <p className="admin-muted">
        {ROLE_NAMES[role]} may: {ROLE_PERMISSIONS[role].join(', ')}.
      </p>

      {list.invitations.length > 0 ? (
        <>
          <h2>Open invitations</h2>
          <ul>
            {list.invitations.map((invitation) => (
              <li key={invitation.id}>
                {invitation.email} as {ROLE_NAMES[invitation.role]}, until {formatDate(invitation.expiresAt)}{' '}
                <button
                  type="button"
                  className="admin-button-secondary"
                  onClick={() =>
                    void attempt(() => withdrawInvitation(invitation.id), `The invitation to ${invitation.email} is withdrawn.`)
                  }
                >
                  Withdraw
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <StepUpDialog />
    </section>
  );
}
