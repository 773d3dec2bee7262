import { useState, type KeyboardEvent } from 'react';
import type { ProductPicture } from '@boatshop/contract';
import { PICTURE_ALT_MAX_LENGTH } from '@boatshop/contract/constants';

interface PictureListProps {
  pictures: ProductPicture[];
  productName: string;
  onMove: (from: number, to: number) => void;
  onSaveAlt: (pictureId: string, alt: string) => Promise<boolean>;
  onDelete: (pictureId: string) => void;
}

/**
 * The boat's pictures in order; the first is the card picture. Reordered by dragging a picture
 * onto another's place, or from the keyboard: the Move up / Move down buttons, or Alt+Arrow keys
 * on either of them (focus stays with the picture as it moves). Each row edits its text alternative and deletes the picture.
 */
export function PictureList({ pictures, productName, onMove, onSaveAlt, onDelete }: PictureListProps) {
  const [dragged, setDragged] = useState<number | null>(null);

  function keys(event: KeyboardEvent, index: number) {
    if (!event.altKey) return;
    if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
      event.preventDefault();
      onMove(index, index + (event.key === 'ArrowUp' ? -1 : 1));
    }
  }

  return (
    <ol className="admin-pictures" aria-label={`Pictures of ${productName}, in the order shoppers see them`}>
      {pictures.map((picture, index) => (
        <li
          key={picture.id}
          className={dragged === index ? 'admin-pictures__item admin-pictures__item--dragged' : 'admin-pictures__item'}
          draggable
          onDragStart={(event) => {
            setDragged(index);
            event.dataTransfer.effectAllowed = 'move';
            event.dataTransfer.setData('text/plain', String(index));
          }}
          onDragOver={(event) => event.preventDefault()}
          onDrop={(event) => {
            event.preventDefault();
            const from = Number(event.dataTransfer.getData('text/plain'));
            setDragged(null);
            if (Number.isInteger(from)) onMove(from, index);
          }}
          onDragEnd={() => setDragged(null)}
        >
          <img className="admin-pictures__thumb" src={picture.src} alt="" width={96} height={72} loading="lazy" draggable={false} />
          <div className="admin-pictures__details">
            <p className="admin-pictures__position">
              {index === 0 ? 'Picture 1 (card picture)' : `Picture ${index + 1}`}
              {picture.width ? ` · ${picture.width} × ${picture.height}` : ' · linked address'}
            </p>
            <AltField picture={picture} index={index} onSave={onSaveAlt} />
          </div>
          <div className="admin-pictures__actions">
            <button
              type="button"
              className="admin-button-secondary"
              disabled={index === 0}
              onClick={() => onMove(index, index - 1)}
              onKeyDown={(event) => keys(event, index)}
            >
              Move up<span className="admin-visually-hidden"> picture {index + 1}</span>
            </button>
            <button
              type="button"
              className="admin-button-secondary"
              disabled={index === pictures.length - 1}
              onClick={() => onMove(index, index + 1)}
              onKeyDown={(event) => keys(event, index)}
            >
              Move down<span className="admin-visually-hidden"> picture {index + 1}</span>
            </button>
            <button type="button" className="admin-button-danger" disabled={pictures.length === 1} onClick={() => onDelete(picture.id)}>
              Delete<span className="admin-visually-hidden"> picture {index + 1}</span>
            </button>
          </div>
        </li>
      ))}
    </ol>
  );
}

function AltField({ picture, index, onSave }: { picture: ProductPicture; index: number; onSave: PictureListProps['onSaveAlt'] }) {
  const [draft, setDraft] = useState(picture.alt);
  const changed = draft.trim() !== picture.alt;
  return (
    <form
      className="admin-pictures__alt"
      onSubmit={(event) => {
        event.preventDefault();
        const alt = draft.trim();
        if (changed) void onSave(picture.id, alt).then((saved) => saved && setDraft(alt));
      }}
    >
      <label className="bs-label">
        Text alternative of picture {index + 1}
        <input
          className="bs-input"
          value={draft}
          maxLength={PICTURE_ALT_MAX_LENGTH}
          onChange={(event) => setDraft(event.target.value)}
          placeholder="What the picture shows"
        />
      </label>
      <button type="submit" className="admin-button-secondary" disabled={!changed}>
        Save<span className="admin-visually-hidden"> text alternative of picture {index + 1}</span>
      </button>
    </form>
  );
}
