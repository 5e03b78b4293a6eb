const EMOJIS = ['😞', '🙁', '😐', '🙂', '😄'];

type Props = {
  name: string;
  style: 'stars' | 'emojies';
  max: number;
  value: number | null;
  onChange: (value: number) => void;
};

/**
 * A score as stars or emojis (company ratingStyle). Native radio buttons, so arrow keys move
 * between scores and screen readers announce "3 of 5".
 */
export function RatingInput({ name, style, max, value, onChange }: Props) {
  return (
    <div className={`rating rating-${style}`}>
      {Array.from({ length: max }, (_, i) => i + 1).map((score) => (
        <label
          key={score}
          className={value !== null && score <= value && style === 'stars' ? 'lit' : undefined}
        >
          <input
            type="radio"
            name={name}
            value={score}
            checked={value === score}
            onChange={() => onChange(score)}
          />
          <span aria-hidden="true">{style === 'stars' ? '★' : EMOJIS[score - 1]}</span>
          <span className="visually-hidden">
            {score} / {max}
          </span>
        </label>
      ))}
    </div>
  );
}
