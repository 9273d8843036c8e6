import styles from './RecipeCard.module.css';

export interface Recipe {
  id: string;
  title: string;
  minutes: number;
  priceCents: number;
}

export function RecipeCard({ recipe, onAdd }: { recipe: Recipe; onAdd: (id: string) => void }) {
  return (
    <article className={styles.card}>
      <h3>{recipe.title}</h3>
      <p>
        {recipe.minutes} min · {(recipe.priceCents / 100).toFixed(2)} €
      </p>
      <button type="button" onClick={() => onAdd(recipe.id)}>
        Add to plan
      </button>
    </article>
  );
}
