import click

@click.group()
def main():
    """warpress"""
