/**
 * An e-mail address on a line of its own that, when too long for its column, breaks after the
 * `@` rather than inside a word; left to right even in a right-to-left page.
 */
export function EmailAddress({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  return (
    <span className="operator-email" dir="ltr">
      {at < 0 ? (
        email
      ) : (
        <>
          {email.slice(0, at + 1)}
          <wbr />
          {email.slice(at + 1)}
        </>
      )}
    </span>
  );
}
